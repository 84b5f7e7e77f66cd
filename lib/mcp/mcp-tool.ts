import { z } from "zod";
import { Tool, ToolResult, type JsonSchema, type ToolContext, type ToolRuntime } from "@/lib/tools";
import { toolFlags, type McpToolAnnotations, type ToolFlags } from "./annotations";

/** One tool as an MCP server lists it. */
export interface RemoteTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonSchema;
  annotations?: McpToolAnnotations;
  /** `required`: the server runs it only as an MCP task (execution.taskSupport), which the studio does not offer. */
  taskSupport?: "optional" | "required" | "forbidden";
}

/**
 * Why the studio cannot call `remote`, in words, or null when it can. A tool
 * that requires task-based execution answers every plain call with an error,
 * so it is refused up front rather than after a person approved the call.
 */
export function unavailableReason(remote: RemoteTool, server: string): string | null {
  if (remote.taskSupport !== "required") return null;
  return `\`${remote.name}\` of the MCP server ${server} runs only as an MCP task (execution.taskSupport: "required"), which the studio does not support yet, so it cannot be called. Use another tool, or ask the server's authors for a version that answers plain calls.`;
}

/** Calls the remote tool by its own name; never throws (failures are ToolResult.error). */
export type RemoteCall = (remoteName: string, args: Record<string, unknown>, ctx: ToolContext) => Promise<ToolResult>;

export interface McpToolSpec {
  /** The studio-side name, after clash resolution (see resolveToolNames). */
  name: string;
  server: string;
  remote: RemoteTool;
  runtime: Extract<ToolRuntime, "local_subprocess" | "hosted">;
  call: RemoteCall;
}

/** Any object: what a schema the studio cannot turn into zod still checks. */
const ANY_OBJECT = z.record(z.string(), z.unknown());

/**
 * The zod model a call is validated with, built from the server's JSON Schema.
 * A schema zod cannot read (an unknown keyword, a broken $ref) falls back to
 * "any object": the server validates its own input too.
 */
export function inputModelFromJsonSchema(schema: JsonSchema): z.ZodType<Record<string, unknown>> {
  try {
    return z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]) as z.ZodType<Record<string, unknown>>;
  } catch {
    return ANY_OBJECT;
  }
}

/**
 * A tool of an MCP server, offered in the studio like any other. Its JSON
 * Schema passes through unchanged to models and forms; its annotations set
 * the flags; every call goes through the permission gate under `mcp_policy`.
 *
 * @example
 *   new McpTool({ name: "echo", server: "tests", runtime: "local_subprocess", remote, call })
 */
export class McpTool extends Tool<Record<string, unknown>> {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputModel: z.ZodType<Record<string, unknown>>;
  override readonly inputJsonSchema: JsonSchema;
  override readonly icon = "mcp";
  override readonly domain: string;
  override readonly origin = "mcp" as const;
  override readonly runtime: McpToolSpec["runtime"];
  /** The server's name for this tool (the studio's may carry a prefix). */
  readonly remoteName: string;
  override readonly server: string;
  readonly flags: ToolFlags;
  /** Why the tool cannot be called (see unavailableReason); null when it can. */
  readonly unavailable: string | null;
  private readonly remoteCall: RemoteCall;
  /** Identifies an McpTool across module copies (each Next.js route bundles its own), where `instanceof` fails. */
  readonly marker = "neurosurfer.mcp-tool";

  static isInstance(tool: unknown): tool is McpTool {
    return typeof tool === "object" && tool !== null && (tool as { marker?: unknown }).marker === "neurosurfer.mcp-tool";
  }

  constructor(spec: McpToolSpec) {
    super();
    this.name = spec.name;
    this.server = spec.server;
    this.remoteName = spec.remote.name;
    this.title = spec.remote.title ?? spec.remote.annotations?.title ?? spec.remote.name;
    this.description = spec.remote.description ?? `The tool ${spec.remote.name} of the MCP server ${spec.server}.`;
    this.inputJsonSchema = spec.remote.inputSchema;
    this.inputModel = inputModelFromJsonSchema(spec.remote.inputSchema);
    this.domain = `mcp:${spec.server}`;
    this.runtime = spec.runtime;
    this.flags = toolFlags(spec.remote.annotations);
    this.unavailable = unavailableReason(spec.remote, spec.server);
    this.remoteCall = spec.call;
  }

  override isReadOnly(): boolean {
    return this.flags.readOnly;
  }

  override isDestructive(): boolean {
    return this.flags.destructive;
  }

  override isConcurrencySafe(): boolean {
    return this.flags.concurrencySafe;
  }

  override progressMessage(): string {
    return `${this.title} (${this.server})…`;
  }

  /** Refuses an unavailable tool before anything else: no argument checks, no approval asked for a call that cannot work. */
  override async run(...parameters: Parameters<Tool["run"]>): Promise<ToolResult> {
    if (this.unavailable !== null) return ToolResult.error(this.unavailable);
    return super.run(...parameters);
  }

  override async call(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult> {
    return this.remoteCall(this.remoteName, args, ctx);
  }
}
