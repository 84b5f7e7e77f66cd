import { z } from "zod";
import type { Operation } from "./operation";
import type { ApprovalPreview } from "./permissions/approval-preview";
import type { PermissionRequest } from "./permissions/permission-request";
import type { Capability } from "./registry/capabilities";
import type { JsonSchema } from "./json-schema";
import type { ToolContext } from "./tool-context";
import { ToolResult } from "./tool-result";

/** Whether the tool reaches this machine's localhost. `hosted` tools cannot. */
export type ToolRuntime = "in_process" | "local_subprocess" | "hosted";

/** Where a tool came from; the registry ranks providers in this order. */
export type ToolOrigin = "core" | "authored" | "imported" | "mcp";

export const TOOL_RUNTIMES: readonly ToolRuntime[] = ["in_process", "local_subprocess", "hosted"];
export const TOOL_ORIGINS: readonly ToolOrigin[] = ["core", "authored", "imported", "mcp"];

/** Arguments of a tool with operations always name the operation. */
export type OperationArgs = { operation: string } & Record<string, unknown>;

/** Options for {@link Tool.run}. */
export interface RunOptions {
  /**
   * Arguments decided by whoever built the workflow, supplied on every call
   * and hidden from the model (secret inputs among them, as `${NAME}`).
   */
  boundArgs?: Record<string, unknown>;
}

/**
 * Everything a tool is but its `run()`, which tool.ts adds in {@link Tool}:
 * apart so that execute-tool.ts, which `run()` calls, can take a tool without
 * importing tool.ts back. Tools extend `Tool`, never this.
 */
export abstract class ToolBase<Args = Record<string, unknown>, Settings = Record<string, unknown>> {
  /** The stable identifier workflows refer to. Never rename it. */
  abstract readonly name: string;
  /** The display text; free to reword. Palettes show this, never `name`. */
  abstract readonly title: string;
  /** What the tool does, for the model and the palette. */
  abstract readonly description: string;
  /** The only thing offered to a model. For tools with operations, see {@link operationsInputModel}. */
  abstract readonly inputModel: z.ZodType<Args>;
  /**
   * A JSON Schema shown to models and forms instead of the one derived from
   * `inputModel`, for tools whose schema comes from elsewhere (an MCP server's)
   * and must pass through unchanged. `inputModel` still validates every call.
   */
  readonly inputJsonSchema: JsonSchema | null = null;

  /** A lucide-style icon name; the studio falls back to the domain's icon. */
  readonly icon: string | null = null;
  /** Palette group ("filesystem", "database", ...). */
  readonly domain: string = "custom";
  /** For a tool of an MCP server (origin "mcp"): that server's configured name. */
  readonly server: string | null = null;
  /** Decided by whoever builds the workflow, never by the model. `null` = nothing to configure. */
  readonly settingsModel: z.ZodType<Settings> | null = null;
  /** The settings key holding the folder that `pathInputs` are confined under. */
  readonly rootSetting: string | null = null;
  /** Input fields that are places on disk; each is resolved under the root and refused outside it. */
  readonly pathInputs: readonly string[] = [];
  /** Input fields whose values reach the tool and never the model. */
  readonly secretInputs: readonly string[] = [];
  /** How to obtain and store the secret inputs; required when there are any. */
  readonly credentialHelp: string = "";
  readonly capabilities: readonly Capability[] = [];
  readonly runtime: ToolRuntime = "in_process";
  readonly origin: ToolOrigin = "authored";
  /** Verified tools rank first among providers of a capability. */
  readonly verified: boolean = false;
  /** Distinct actions of this tool, by stable name. `null` = a single action. */
  readonly operations: Readonly<Record<string, Operation<unknown, unknown>>> | null = null;

  /**
   * Does the work. Tools with operations need not override it: the base
   * routes to the chosen operation's `execute`.
   */
  async call(args: Args, ctx: ToolContext<Settings>): Promise<ToolResult> {
    const operation = this.operationFor(args);
    if (!operation) {
      throw new Error(`Tool "${this.name}" declares neither call() nor operations.`);
    }
    const execute = operation.execute as (args: Args, ctx: ToolContext<Settings>) => Promise<ToolResult>;
    return execute(args, ctx);
  }

  /** The operation a call chose, for tools with operations. */
  operationFor(args: unknown): Operation<unknown, unknown> | undefined {
    if (!this.operations || args === null || typeof args !== "object") return undefined;
    const name = (args as { operation?: unknown }).operation;
    return typeof name === "string" && Object.hasOwn(this.operations, name) ? this.operations[name] : undefined;
  }

  /**
   * Pure, side-effect-free for these arguments. Without arguments: true only
   * when every operation is read-only. Tools without operations default to false.
   */
  isReadOnly(args?: Args): boolean {
    if (!this.operations) return false;
    const operation = args === undefined ? undefined : this.operationFor(args);
    if (operation) return operation.readOnly;
    return Object.values(this.operations).every((each) => each.readOnly);
  }

  /** May run in parallel with other calls. Defaults to read-only. */
  isConcurrencySafe(args?: Args): boolean {
    const operation = args === undefined ? undefined : this.operationFor(args);
    if (operation?.concurrencySafe !== undefined) return operation.concurrencySafe;
    return this.isReadOnly(args);
  }

  /** Goes through the permission gate. Defaults to not read-only. */
  isDestructive(args?: Args): boolean {
    const operation = args === undefined ? undefined : this.operationFor(args);
    if (operation?.destructive !== undefined) return operation.destructive;
    return !this.isReadOnly(args);
  }

  /** Whether the tool is offered at all (e.g. false when a needed program is missing). */
  isEnabled(): boolean {
    return true;
  }

  /** A friendly status line shown when the call starts ("Reading README.md…"). */
  progressMessage(args: Args): string {
    const operation = this.operationFor(args);
    return operation ? `${this.title}: ${operation.title}…` : `${this.title}…`;
  }

  /**
   * The problem with a secret value that is set but unusable, or "" when it
   * is usable. Set is not the same as usable.
   */
  checkSecret(_name: string, value: string): string {
    return value.trim() === "" ? "is empty" : "";
  }

  /**
   * What a destructive call is about to do, for the permission gate. The
   * default derives it from the capabilities; tools override it to give a
   * person more to decide on (a diff, a URL).
   */
  async describeAction(args: Args, _ctx: ToolContext<Settings>): Promise<PermissionRequest[]> {
    const values = args as Record<string, unknown>;
    const tags = new Set<string>(this.capabilitiesOf(args));
    const requests: PermissionRequest[] = [];
    if (this.origin === "mcp") {
      const server = this.server ?? this.domain;
      requests.push({
        kind: "mcp",
        server,
        tool: this.name,
        argumentsText: JSON.stringify(values),
        readOnly: this.isReadOnly(args),
        preview: { kind: "tool-call", tool: this.name, server, argumentsText: JSON.stringify(values, null, 2) },
      });
      return requests;
    }
    if (tags.has("file.write") || tags.has("file.edit")) {
      for (const input of this.pathInputs) {
        const path = values[input];
        if (typeof path === "string") {
          const preview = { kind: "text", text: `${this.title} ${path}` } as const;
          requests.push({ kind: "write", path, preview, edit: tags.has("file.edit") });
        }
      }
    }
    if (tags.has("system.shell")) {
      const command = typeof values.command === "string" ? values.command : JSON.stringify(values);
      const preview = { kind: "command", command, workingFolder: ".", background: false } as const;
      requests.push({ kind: "shell", command, workingFolder: ".", reason: this.progressMessage(args), preview });
    }
    if ([...tags].some((tag) => tag.startsWith("web."))) {
      const method = typeof values.method === "string" ? values.method.toUpperCase() : "GET";
      const url = typeof values.url === "string" ? values.url : "";
      const preview: ApprovalPreview = { kind: "request", method, url, headers: [], body: null };
      requests.push({ kind: "network", method, url, reason: this.progressMessage(args), preview });
    }
    return requests;
  }

  /** The capability tags a call exercises: its operation's, else the tool's. */
  capabilitiesOf(args?: Args): readonly Capability[] {
    const operation = args === undefined ? undefined : this.operationFor(args);
    return operation ? operation.capabilities : this.capabilities;
  }

  /** The input model a call is validated against: the chosen operation's own, else the tool's. */
  inputModelFor(args: unknown): z.ZodType {
    return this.operationFor(args)?.inputModel ?? this.inputModel;
  }

  /** Settings keys a workflow must fill in before this tool can run. */
  requiredSettings(): string[] {
    if (!this.settingsModel || !(this.settingsModel instanceof z.ZodObject)) return [];
    const shape = (this.settingsModel as z.ZodObject).shape;
    return Object.entries(shape)
      .filter(([, field]) => !(field as z.ZodType).safeParse(undefined).success)
      .map(([key]) => key);
  }
}

/**
 * The input model of a tool with operations: an `operation` discriminator and,
 * per operation, that operation's own fields.
 *
 * @example
 *   readonly operations = { query: queryOperation, list_tables: listTablesOperation };
 *   readonly inputModel = operationsInputModel(this.operations);
 */
export function operationsInputModel(
  operations: Readonly<Record<string, Operation<unknown, unknown>>>,
): z.ZodType<OperationArgs> {
  const variants = Object.entries(operations).map(([name, operation]) =>
    operation.inputModel.extend({ operation: z.literal(name).describe(operation.title) }),
  );
  if (variants.length === 0) throw new Error("A tool with operations needs at least one operation.");
  return z.discriminatedUnion(
    "operation",
    variants as unknown as [z.ZodObject, ...z.ZodObject[]],
  ) as unknown as z.ZodType<OperationArgs>;
}
