import type { Readable } from "node:stream";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { DEFAULT_INHERITED_ENV_VARS, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { ToolResult, type JsonSchema, type SecretResolver, type ToolContext, type ToolErrorKind } from "@/lib/tools";
import type { McpServerConfig } from "@/lib/validations/mcp-server";
import type { McpToolAnnotations } from "./annotations";
import { toToolResult } from "./call-result";
import { describeConnectError, isMalformedResult } from "./describe-error";
import type { RemoteTool } from "./mcp-tool";
import { expandSecrets } from "./secret-expansion";

/** Where a server's connection stands, as the servers page shows it. */
export type ConnectionState = "connected" | "connecting" | "failed" | "disabled";

export interface ConnectionTimeouts {
  /** Starting the server and the MCP handshake. Default 15 s. */
  connectMs: number;
  /** Listing its tools. Default 15 s. */
  listMs: number;
  /** One tool call without a word from the tool; each progress notification starts the wait again. Default 60 s. */
  callMs: number;
  /** One tool call in all, progress or not, unless the server sets its own (maxCallSeconds). Default 10 minutes. */
  maxCallMs: number;
}

export const DEFAULT_TIMEOUTS: ConnectionTimeouts = { connectMs: 15_000, listMs: 15_000, callMs: 60_000, maxCallMs: 10 * 60_000 };

/** The variables a stdio server gets from the studio's own environment; nothing else leaks to it. */
export const INHERITED_VARIABLES = ["PATH", "HOME", "LANG"] as const;

const STDERR_TAIL_CHARS = 2_000;
const CLIENT_INFO = { name: "neurosurfer-studio", version: "0.1.0" };

/**
 * A server configuration with the identity the manager keys it by. `createdAt`
 * (a stored server's) decides who keeps a tool's plain name on a clash: the
 * earliest-added server does, so adding a server never renames another's tools.
 */
/** A stored server as the connection manager runs it; `toolNames`: the names given to its tools before (the server's name -> ours). */
export type McpServerEntry = McpServerConfig & { id: string; createdAt?: Date; toolNames?: Readonly<Record<string, string>> };

/**
 * One client connection to one MCP server. Connects on first use, lists the
 * server's tools, and reconnects on the next use after the server went away
 * (a crashed stdio process is started again). Calls never throw: a slow,
 * crashed or misbehaving server comes back as a ToolResult.error in words.
 */
export class McpConnection {
  state: ConnectionState = "connecting";
  error: string | null = null;
  /** The tools from the last successful listing; kept across a crash so workflows still resolve them. */
  tools: RemoteTool[] = [];

  private client: Client | null = null;
  private connecting: Promise<void> | null = null;
  private generation = 0;
  private stderrTail = "";
  private secretValues: string[] = [];

  constructor(
    readonly config: McpServerEntry,
    private readonly secrets: SecretResolver,
    private readonly timeouts: ConnectionTimeouts = DEFAULT_TIMEOUTS,
  ) {
    if (!config.enabled) this.state = "disabled";
  }

  /** Connects (once, however many callers wait) and lists the tools. Never throws; see `state` and `error`. */
  connect(): Promise<void> {
    if (!this.config.enabled) return Promise.resolve();
    if (this.client && this.state === "connected") return Promise.resolve();
    this.connecting ??= this.open().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  /** Calls a tool by the server's own name. */
  async callTool(remoteName: string, args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult> {
    const label = `\`${remoteName}\` on the MCP server ${this.config.name}`;
    if (!this.config.enabled) return ToolResult.error(`${label} cannot be called: the server is disabled. Enable it in Settings → MCP.`);
    await this.connect();
    const client = this.client;
    if (!client) return ToolResult.error(`${label} cannot be called: ${this.error ?? "the server is not connected"}.`, { kind: "unavailable" });
    try {
      const result = await client.callTool({ name: remoteName, arguments: args }, undefined, {
        timeout: this.timeouts.callMs,
        // A tool that keeps reporting progress is working, not stuck: wait on, up to the server's maximum.
        resetTimeoutOnProgress: true,
        maxTotalTimeout: this.maxCallMs(),
        signal: ctx.signal,
        onprogress: (progress) => {
          const message = progress.message ?? `${progress.progress}${progress.total ? ` of ${progress.total}` : ""}`;
          ctx.events.emit({ type: "tool-progress", tool: remoteName, message: this.mask(message) });
        },
      });
      return toToolResult(remoteName, result as Record<string, unknown>).mapText((text) => this.mask(text));
    } catch (error) {
      const failure = this.describeCallError(error, label, ctx.signal);
      return ToolResult.error(this.mask(failure.message), { kind: failure.kind });
    }
  }

  /** Lists the tools again (after a `notifications/tools/list_changed`, or to test a server). */
  async refreshTools(): Promise<void> {
    const client = this.client;
    if (!client) return;
    this.tools = await listAllTools(client, this.timeouts.listMs);
  }

  async close(): Promise<void> {
    this.generation += 1;
    const client = this.client;
    this.client = null;
    if (this.config.enabled) this.state = "failed";
    await client?.close().catch(() => undefined);
  }

  private async open(): Promise<void> {
    const generation = ++this.generation;
    this.state = "connecting";
    this.error = null;
    this.stderrTail = "";
    let transport: Transport;
    try {
      transport = await this.makeTransport();
    } catch (error) {
      this.fail(error instanceof Error ? error.message : String(error));
      return;
    }
    const client = new Client(CLIENT_INFO, { capabilities: {} });
    client.onerror = () => undefined;
    client.onclose = () => {
      if (generation !== this.generation) return;
      this.client = null;
      const exited = this.config.transport === "stdio" ? "The server process exited" : "The connection closed";
      this.fail(`${exited}${this.stderrSuffix()}. It is started again on the next use.`);
    };
    try {
      await client.connect(transport, { timeout: this.timeouts.connectMs });
      const tools = await listAllTools(client, this.timeouts.listMs);
      if (generation !== this.generation) {
        await client.close().catch(() => undefined);
        return;
      }
      this.client = client;
      this.tools = tools;
      this.state = "connected";
      this.error = null;
    } catch (error) {
      if (generation !== this.generation) return;
      this.generation += 1;
      await client.close().catch(() => undefined);
      this.fail(`${this.describeOpenError(error)}${this.stderrSuffix()}`);
    }
  }

  private async makeTransport(): Promise<Transport> {
    const config = this.config;
    if (config.transport === "http") {
      const { values: headers, used } = await expandSecrets(config.headers, this.secrets, "The header");
      this.secretValues = used;
      return new StreamableHTTPClientTransport(new URL(config.url), { requestInit: { headers } });
    }
    const { values: env, used } = await expandSecrets(config.env, this.secrets, "The environment variable");
    this.secretValues = used;
    const transport = new StdioClientTransport({
      command: config.command,
      args: config.args,
      cwd: config.cwd ?? undefined,
      env: { ...serverEnvironment(), ...env },
      stderr: "pipe",
    });
    (transport.stderr as Readable | null)?.on("data", (chunk: Buffer | string) => {
      this.stderrTail = (this.stderrTail + chunk.toString()).slice(-STDERR_TAIL_CHARS);
    });
    return transport;
  }

  private fail(message: string): void {
    this.state = "failed";
    this.error = this.mask(message);
  }

  private describeOpenError(error: unknown): string {
    const target = this.config.transport === "stdio" ? JSON.stringify(this.config.command) : this.config.url;
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      return `The server did not complete the MCP handshake and list its tools within ${seconds(this.timeouts.connectMs)}. Check that ${target} is an MCP server speaking ${this.config.transport === "stdio" ? "stdio" : "streamable HTTP"}.`;
    }
    if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
      return `The server closed the connection during the handshake. Check that ${target} starts an MCP server`;
    }
    return describeConnectError(error, target);
  }

  private describeCallError(error: unknown, label: string, signal: AbortSignal): { message: string; kind: ToolErrorKind } {
    if (signal.aborted) return { message: `${label} was cancelled.`, kind: "cancelled" };
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      if (/maximum total timeout/i.test(error.message)) {
        return {
          message: `${label} was still working after ${seconds(this.maxCallMs())}, the longest a call of this server may take; the call was abandoned. Raise "Longest call" for the server in Settings → MCP if it needs longer.`,
          kind: "timeout",
        };
      }
      return {
        message: `${label} did not answer or report progress within ${seconds(this.timeouts.callMs)}; the call was abandoned. Try again later, or check the server.`,
        kind: "timeout",
      };
    }
    if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
      return { message: `${label} failed: the server went away during the call${this.stderrSuffix()}. It is started again on the next use.`, kind: "network" };
    }
    if (isMalformedResult(error)) {
      return { message: `${label} returned data that is not a valid MCP tool result; the server has a bug. Report it to its authors, or use another tool.`, kind: "failed" };
    }
    if (error instanceof McpError) return { message: `${label} failed: ${error.message}`, kind: "failed" };
    // A transport failure (HTTP down, a broken pipe): drop the client so the next use reconnects.
    void this.close();
    this.fail(describeConnectError(error, this.config.transport === "http" ? this.config.url : this.config.command));
    return { message: `${label} failed: ${this.error ?? "the connection failed"}. It is tried again on the next use.`, kind: "network" };
  }

  private maxCallMs(): number {
    return this.config.maxCallSeconds === null || this.config.maxCallSeconds === undefined ? this.timeouts.maxCallMs : this.config.maxCallSeconds * 1000;
  }

  private stderrSuffix(): string {
    const lines = this.stderrTail.trim().split("\n").filter(Boolean).slice(-3).join(" | ");
    return lines ? ` (it printed: ${lines})` : "";
  }

  private mask(text: string): string {
    let masked = text;
    for (const value of this.secretValues) if (value.length >= 4) masked = masked.split(value).join("***");
    return masked;
  }
}

/** PATH, HOME and LANG from the studio's environment, and nothing else (the SDK would add USER, SHELL, ...). */
function serverEnvironment(): Record<string, string> {
  const environment: Record<string, string | undefined> = {};
  // Node leaves out variables whose value is undefined, which cancels the SDK's defaults.
  for (const name of DEFAULT_INHERITED_ENV_VARS) environment[name] = undefined;
  for (const name of INHERITED_VARIABLES) if (process.env[name] !== undefined) environment[name] = process.env[name];
  return environment as Record<string, string>;
}

async function listAllTools(client: Client, timeoutMs: number): Promise<RemoteTool[]> {
  const tools: RemoteTool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 100; page += 1) {
    const result = await client.listTools(cursor ? { cursor } : undefined, { timeout: timeoutMs });
    for (const tool of result.tools) {
      tools.push({
        name: tool.name,
        ...(tool.title ? { title: tool.title } : {}),
        ...(tool.description ? { description: tool.description } : {}),
        inputSchema: tool.inputSchema as JsonSchema,
        ...(tool.annotations ? { annotations: tool.annotations as McpToolAnnotations } : {}),
        ...(tool.execution?.taskSupport ? { taskSupport: tool.execution.taskSupport } : {}),
      });
    }
    cursor = result.nextCursor;
    if (!cursor) break;
  }
  return tools;
}

function seconds(milliseconds: number): string {
  return milliseconds % 1000 === 0 ? `${milliseconds / 1000} s` : `${(milliseconds / 1000).toFixed(1)} s`;
}
