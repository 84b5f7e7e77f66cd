import { McpConnectionManager } from "@/lib/mcp";
import { defaultPool, ToolPool, type SecretResolver } from "@/lib/tools";
import { getSecretBox, prepareDatabase, secretResolver, type StudioDatabase } from "@/lib/persistence";
import { listMcpServers, listMcpToolNames, rememberMcpToolNames } from "@/lib/persistence/mcp-server-store";
import { PrismaRunStore } from "@/lib/persistence/run-store";
import { RunEventBus } from "@/lib/workflow/event-bus";
import { RunEngine } from "@/lib/workflow/run-engine";
import { prepareAccess } from "./access/announce";
import { seedExampleWorkflows } from "./example-workflows";
import { mayStart } from "./mcp-servers";

/** The server-side pieces every route shares: one of each per process. */
export interface Studio {
  database: StudioDatabase;
  bus: RunEventBus;
  engine: RunEngine;
  /** Built-in tools plus the enabled MCP servers' tools, as of now. */
  pool: () => ToolPool;
  secrets: SecretResolver;
  mcp: McpConnectionManager;
  /** Brings the MCP connections in line with the stored servers; call after changing them. */
  reloadMcp: () => Promise<void>;
}

const GLOBAL_KEY = Symbol.for("neurosurfer.studio");
type GlobalWithStudio = typeof globalThis & { [GLOBAL_KEY]?: Promise<Studio> };

/**
 * Starts the studio once per process (instrumentation calls it at boot; every
 * route awaits it): migrates the database, checks the secret key against the
 * stored secrets (refusing to start on a mismatch rather than losing them),
 * and resumes the runs a previous process left unfinished.
 */
export function startStudio(): Promise<Studio> {
  const holder = globalThis as GlobalWithStudio;
  holder[GLOBAL_KEY] ??= boot().catch((error: unknown) => {
    delete holder[GLOBAL_KEY];
    throw error;
  });
  return holder[GLOBAL_KEY];
}

async function boot(): Promise<Studio> {
  const database = await prepareDatabase();
  await getSecretBox(database);
  await prepareAccess(database);
  const bus = new RunEventBus();
  const secrets = secretResolver(database);
  // Built-in tools are stateless apart from the job table: one set for the process.
  const builtIns = defaultPool();
  const mcp = new McpConnectionManager({
    secrets,
    reservedNames: () => builtIns.names(),
    rememberNames: (serverId, names) =>
      void rememberMcpToolNames(serverId, names, database).catch((error: unknown) => console.error("[studio] could not store MCP tool names", error)),
  });
  // A stdio server whose command nobody confirmed is never started (lib/server/mcp-servers.ts); its tools keep their names meanwhile.
  const reloadMcp = async () => {
    const [servers, names] = await Promise.all([listMcpServers(database), listMcpToolNames(database)]);
    const entries = servers.filter(mayStart).map((server) => ({ ...server, toolNames: names.get(server.id) ?? {} }));
    const held = servers.filter((server) => !mayStart(server)).flatMap((server) => Object.values(names.get(server.id) ?? {}));
    await mcp.configure(entries, held);
  };
  // MCP tools come and go with their servers; a new pool only when they changed.
  let cached: { tools: readonly unknown[]; pool: ToolPool } = { tools: [], pool: builtIns };
  const pool = () => {
    const remote = mcp.tools();
    if (remote !== cached.tools) cached = { tools: remote, pool: remote.length === 0 ? builtIns : new ToolPool([...builtIns.all(), ...remote]) };
    return cached.pool;
  };
  // Before resuming runs, so their MCP tools resolve; each server is bounded by its connect timeout.
  await reloadMcp().catch((error: unknown) => console.error("[studio] could not load the MCP servers", error));
  const engine = new RunEngine({
    store: new PrismaRunStore(database),
    bus,
    pool,
    secrets,
    log: (message, error) => console.error(`[studio] ${message}`, error ?? ""),
  });
  await seedExampleWorkflows(database).catch((error: unknown) => console.error("[studio] could not create the example workflows", error));
  const resumed = await engine.resumeAll();
  if (resumed.length > 0) console.log(`[studio] resumed ${resumed.length} unfinished run(s)`);
  return { database, bus, engine, pool, secrets, mcp, reloadMcp };
}
