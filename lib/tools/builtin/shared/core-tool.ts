import { Tool } from "../../tool";

/**
 * A tool that ships with the studio. The registry ranks providers by origin and verified tools first among those
 * of a capability; every built-in is both core and verified, so they say so here once instead of each spelling it out.
 */
export abstract class CoreTool<Args = Record<string, unknown>, Settings = Record<string, unknown>> extends Tool<Args, Settings> {
  override readonly origin = "core" as const;
  override readonly verified = true;
}
