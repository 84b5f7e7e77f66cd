import type { SecretResolver } from "@/lib/tools";
import type { ToolFlags } from "./annotations";
import { DEFAULT_TIMEOUTS, McpConnection, type ConnectionState, type ConnectionTimeouts, type McpServerEntry } from "./connection";
import { McpTool } from "./mcp-tool";
import { resolveToolNames } from "./tool-names";

/** One of a server's tools as the servers page lists it. */
export interface McpToolStatus {
  /** The studio-side name workflows use. */
  name: string;
  /** The server's own name for it. */
  remoteName: string;
  title: string;
  description: string;
  flags: ToolFlags;
  /** Why the studio cannot call it (it requires task-based execution); null when it can. */
  unavailable: string | null;
}

/** A server's connection as the servers page shows it. */
export interface McpServerStatus {
  id: string;
  name: string;
  state: ConnectionState;
  /** What went wrong, in words, when `state` is failed. */
  error: string | null;
  tools: McpToolStatus[];
}

export interface McpConnectionManagerOptions {
  secrets: SecretResolver;
  /** Names no remote tool may take (the built-ins win every clash). */
  reservedNames: () => Iterable<string>;
  timeouts?: Partial<ConnectionTimeouts>;
  /**
   * Keeps the names given to a server's tools (all of them, the server's
   * name for each -> ours), so that they are given again after a restart
   * and stay whatever servers come and go. Called when a tool gets its name.
   */
  rememberNames?: (serverId: string, names: Record<string, string>) => void;
}

/**
 * One connection per enabled MCP server, and their tools as studio Tools.
 * `configure` brings the connections in line with the stored servers (a
 * changed server is reconnected, a removed one closed); `tools()` is cheap
 * and changes only when a server's listing or configuration does (`version`).
 *
 * @example
 *   const manager = new McpConnectionManager({ secrets, reservedNames: () => builtIns.names() });
 *   await manager.configure(await listMcpServers());
 *   new ToolPool([...builtIns.all(), ...manager.tools()]);
 */
export class McpConnectionManager {
  private readonly connections = new Map<string, McpConnection>();
  /** When each server was first configured here: the tie-break for servers without a createdAt. */
  private readonly arrival = new Map<string, number>();
  private readonly timeouts: ConnectionTimeouts;
  private cachedTools: { key: string; tools: McpTool[] } | null = null;
  /** Names given to each server's tools (by server id), as stored and as given since. */
  private readonly givenNames = new Map<string, Record<string, string>>();
  /** Names held by stored servers this manager does not run (a stdio command nobody confirmed yet). */
  private heldElsewhere: readonly string[] = [];

  constructor(private readonly options: McpConnectionManagerOptions) {
    this.timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  }

  /**
   * Applies the stored servers and waits until every enabled one has
   * connected or failed. `heldElsewhere`: the tool names of stored servers
   * not given here, which no other server's tool may take.
   */
  async configure(servers: readonly McpServerEntry[], heldElsewhere: readonly string[] = []): Promise<void> {
    const wanted = new Map(servers.map((server) => [server.id, server]));
    this.heldElsewhere = heldElsewhere;
    // Names given here may not be stored yet (rememberNames writes in the background): a reload that
    // read the database before that write landed must not hand a kept name out again.
    const givenHere = new Map(this.givenNames);
    this.givenNames.clear();
    for (const server of servers) this.givenNames.set(server.id, { ...server.toolNames, ...givenHere.get(server.id) });
    const closing: Promise<void>[] = [];
    for (const [id, connection] of this.connections) {
      const next = wanted.get(id);
      if (!next || configKey(next) !== configKey(connection.config)) {
        this.connections.delete(id);
        if (!next) this.arrival.delete(id);
        closing.push(connection.close());
      }
    }
    for (const server of servers) {
      if (!this.arrival.has(server.id)) this.arrival.set(server.id, this.arrival.size === 0 ? 0 : Math.max(...this.arrival.values()) + 1);
      if (!this.connections.has(server.id)) this.connections.set(server.id, new McpConnection(server, this.options.secrets, this.timeouts));
    }
    await Promise.all(closing);
    await Promise.all([...this.connections.values()].map((connection) => connection.connect()));
  }

  /**
   * Every enabled server's tools, named per resolveToolNames with servers in
   * the order they were added (createdAt, then arrival): on a clash the
   * earliest keeps the plain name, so a later server never renames its tools.
   */
  tools(): McpTool[] {
    const everyConnection = this.connectionsByAge();
    const connections = everyConnection.filter((connection) => connection.config.enabled);
    const reserved = [...this.options.reservedNames()];
    // A disabled server keeps its tools' names for when it is enabled again.
    const held = [
      ...this.heldElsewhere,
      ...everyConnection.filter((connection) => !connection.config.enabled).flatMap((connection) => Object.values(this.givenNames.get(connection.config.id) ?? {})),
    ];
    const keyOf = () =>
      JSON.stringify([
        reserved,
        held,
        connections.map((connection) => [connection.config.id, configKey(connection.config), connection.tools, this.givenNames.get(connection.config.id)]),
      ]);
    if (this.cachedTools?.key === keyOf()) return this.cachedTools.tools;
    const names = resolveToolNames(
      reserved,
      connections.map((connection) => ({
        server: connection.config.name,
        prefix: connection.config.toolPrefix,
        tools: connection.tools.map((tool) => tool.name),
        given: this.givenNames.get(connection.config.id) ?? {},
      })),
      held,
    );
    for (const connection of connections) this.keepNames(connection.config.id, names.get(connection.config.name)!);
    const tools = connections.flatMap((connection) =>
      connection.tools.map(
        (remote) =>
          new McpTool({
            name: names.get(connection.config.name)!.get(remote.name)!,
            server: connection.config.name,
            remote,
            runtime: connection.config.transport === "http" ? "hosted" : "local_subprocess",
            call: (remoteName, args, ctx) => connection.callTool(remoteName, args, ctx),
          }),
      ),
    );
    // Keyed after keeping: what was just given is part of what the next call starts from.
    this.cachedTools = { key: keyOf(), tools };
    return tools;
  }

  /** Records names given for the first time and hands them to `rememberNames`. */
  private keepNames(serverId: string, names: ReadonlyMap<string, string>): void {
    const given = this.givenNames.get(serverId) ?? {};
    const fresh = [...names].filter(([tool, name]) => given[tool] !== name);
    if (fresh.length === 0) return;
    const kept = { ...given, ...Object.fromEntries(fresh) };
    this.givenNames.set(serverId, kept);
    this.options.rememberNames?.(serverId, kept);
  }

  /** Every server's state, error and tools. */
  status(): McpServerStatus[] {
    const byServer = new Map<string, McpTool[]>();
    for (const tool of this.tools()) byServer.set(tool.server, [...(byServer.get(tool.server) ?? []), tool]);
    return this.sortedConnections().map((connection) => ({
      id: connection.config.id,
      name: connection.config.name,
      state: connection.state,
      error: connection.error,
      tools: (byServer.get(connection.config.name) ?? []).map(toolStatus),
    }));
  }

  statusOf(id: string): McpServerStatus | undefined {
    return this.status().find((each) => each.id === id);
  }

  /** Reconnects one server (closing it first) and lists its tools again: the page's "Test" button. */
  async reconnect(id: string): Promise<McpServerStatus | undefined> {
    const connection = this.connections.get(id);
    if (!connection) return undefined;
    await connection.close();
    await connection.connect();
    return this.statusOf(id);
  }

  async close(): Promise<void> {
    const connections = [...this.connections.values()];
    this.connections.clear();
    await Promise.all(connections.map((connection) => connection.close()));
  }

  private connectionsByAge(): McpConnection[] {
    const age = (connection: McpConnection) => connection.config.createdAt?.getTime() ?? Number.POSITIVE_INFINITY;
    const arrival = (connection: McpConnection) => this.arrival.get(connection.config.id) ?? Number.POSITIVE_INFINITY;
    return [...this.connections.values()].sort((a, b) => age(a) - age(b) || arrival(a) - arrival(b) || a.config.id.localeCompare(b.config.id));
  }

  private sortedConnections(): McpConnection[] {
    return [...this.connections.values()].sort((a, b) => a.config.name.localeCompare(b.config.name));
  }
}

function toolStatus(tool: McpTool): McpToolStatus {
  return { name: tool.name, remoteName: tool.remoteName, title: tool.title, description: tool.description, flags: tool.flags, unavailable: tool.unavailable };
}

/** What makes a connection different: everything but identity and timestamps. */
function configKey(config: McpServerEntry): string {
  const sorted = (record: Readonly<Record<string, string>>) => Object.entries(record).sort(([a], [b]) => a.localeCompare(b));
  const common = [config.name, config.enabled, config.toolPrefix, config.maxCallSeconds];
  return JSON.stringify(
    config.transport === "stdio"
      ? [...common, "stdio", config.command, config.args, sorted(config.env), config.cwd]
      : [...common, "http", config.url, sorted(config.headers)],
  );
}
