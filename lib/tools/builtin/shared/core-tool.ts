import type { z } from "zod";
import type { Operation } from "../../operation";
import type { Capability } from "../../registry/capabilities";
import { operationsInputModel, Tool, type ToolRuntime } from "../../tool";

/** Who a tool is, as models and palettes know it (ToolBase documents each field), and the input model it takes. */
export interface ToolIdentity<Args> {
  name: string;
  title: string;
  icon: string;
  description: string;
  inputModel: z.ZodType<Args>;
}

/**
 * What a built-in tool declares about itself, in the one shape every built-in fills in: the fields of ToolBase it
 * sets, each left out when the base's default holds, and its fixed answers to "read-only?" and "safe beside other
 * calls?" as flags instead of a method each overriding to return a constant.
 */
export type CoreToolHeader<Args, Settings> = Omit<ToolIdentity<Args>, "inputModel"> & {
  domain: string;
  capabilities?: readonly Capability[];
  runtime?: ToolRuntime;
  settingsModel?: z.ZodType<Settings>;
  rootSetting?: string;
  pathInputs?: readonly string[];
  secretInputs?: readonly string[];
  credentialHelp?: string;
  /** Every call's answer to isReadOnly(), whatever its arguments; absent, ToolBase's rule (or an override) decides. */
  readOnly?: boolean;
  /** Every call's answer to isConcurrencySafe(); absent, it follows isReadOnly(). */
  concurrencySafe?: boolean;
} & (
    | { inputModel: z.ZodType<Args>; operations?: never }
    /** A tool with operations: its input model is theirs (operationsInputModel), so it is not declared again. */
    | { operations: Readonly<Record<string, Operation<unknown, unknown>>>; inputModel?: never }
  );

/**
 * A tool that ships with the studio. The registry ranks providers by origin and verified tools first among those
 * of a capability; every built-in is both core and verified, so they say so here once instead of each spelling it out.
 */
export abstract class CoreTool<Args = Record<string, unknown>, Settings = Record<string, unknown>> extends Tool<Args, Settings> {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputModel: z.ZodType<Args>;
  override readonly origin = "core" as const;
  override readonly verified = true;
  readonly #flags: { readOnly?: boolean; concurrencySafe?: boolean };

  constructor({ name, title, description, inputModel, operations, readOnly, concurrencySafe, ...declared }: CoreToolHeader<Args, Settings>) {
    super();
    this.name = name;
    this.title = title;
    this.description = description;
    // A tool with operations takes `{ operation, ...that operation's fields }`: OperationArgs is its Args. (Neither
    // an input model nor operations: operationsInputModel throws, naming the mistake.)
    this.inputModel = inputModel ?? (operationsInputModel(operations ?? {}) as unknown as z.ZodType<Args>);
    // ToolBase's own fields (read-only to subclasses' types): those the header names replace their defaults.
    Object.assign(this, Object.fromEntries(Object.entries({ operations, ...declared }).filter(([, value]) => value !== undefined)));
    this.#flags = { readOnly, concurrencySafe };
  }

  override isReadOnly(args?: Args): boolean {
    return this.#flags.readOnly ?? super.isReadOnly(args);
  }

  override isConcurrencySafe(args?: Args): boolean {
    return this.#flags.concurrencySafe ?? super.isConcurrencySafe(args);
  }
}
