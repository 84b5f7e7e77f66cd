import { DIRECT_ROUTES_KEY, serveDirect } from "./direct/dispatch";
import { startStudio } from "./studio";

/**
 * Boots the studio at server start, or stops the process with the reason (e.g. a secret key mismatch). Then
 * registers the direct routes: scripts/serve.mjs hands webhook deliveries and a run's start and events straight to
 * them, past Next's routing (until then Next serves those too). Registered here, not by the studio's boot, since those
 * routes themselves reach the studio.
 */
export async function bootOrExit(): Promise<void> {
  try {
    const studio = await startStudio();
    if (studio.role !== "worker") (globalThis as { [DIRECT_ROUTES_KEY]?: typeof serveDirect })[DIRECT_ROUTES_KEY] = serveDirect;
  } catch (error) {
    console.error(`[studio] cannot start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
