import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import type BetterSqlite3 from "better-sqlite3";
import { EnvironmentSchema } from "@/lib/env";
import { databaseFilePath, databaseUrl } from "./data-folder";
import { databaseProvider, type DatabaseProvider } from "./database-provider";
import { PrismaClient as PostgresPrismaClient } from "./generated/postgresql/client";
import { PrismaClient } from "./generated/sqlite/client";
import { applyMigrations } from "./migrations";
import { PostgresStatements } from "./postgres-statements";
import { InlineSqliteWriter } from "./sqlite-inline-writer";
import type { SqliteConnection } from "./sqlite-connection";
import { SqliteWriter, type RunWrites } from "./sqlite-writer";

/**
 * The studio's Prisma client. Both providers' clients are generated from the
 * same models (prisma/models.prisma), so they have the same model API; the
 * stores are written against the SQLite client's type and never use a
 * provider-only feature.
 */
export type StudioDatabase = PrismaClient;

/**
 * Run on every connection the adapter opens (the first, and any reconnect
 * after `$disconnect`): journal_mode persists in the file, the others are per
 * connection. synchronous=NORMAL is safe in WAL mode (a crash may lose the
 * last commits, never corrupt the file).
 */
export const CONNECTION_PRAGMAS =
  "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000;";

const GLOBAL_KEY = Symbol.for("neurosurfer.studio-database");
type GlobalWithDatabase = typeof globalThis & { [GLOBAL_KEY]?: { url: string; client: StudioDatabase } };

/**
 * The process's database client (DATABASE_URL, else the data folder's SQLite
 * file), kept on globalThis so Next.js dev reloads reuse it. It does not
 * migrate: the process's start does that first (`prepareDatabase`).
 *
 * @example
 * const workflows = await getDatabase().workflow.findMany();
 */
export function getDatabase(): StudioDatabase {
  const holder = globalThis as GlobalWithDatabase;
  const existing = holder[GLOBAL_KEY];
  if (existing) return existing.client;
  const url = databaseUrl();
  const client = openDatabase(url);
  holder[GLOBAL_KEY] = { url, client };
  return client;
}

/** Connections each process's Prisma client keeps to PostgreSQL (the run hot path's pool keeps STATEMENT_POOL_SIZE more, the job queue 3, and 1 listens for notifications). */
export const POSTGRES_POOL_SIZE = 6;

/**
 * Options for the interactive transactions of the busy paths (a run's
 * creation, a decision, a cancel request): Prisma's defaults (2 s to get a
 * connection, 5 s in all) turn a burst of requests into 500s when the pool is
 * busy; these wait their turn instead.
 */
export const BUSY_TRANSACTION = { maxWait: 15_000, timeout: 30_000 } as const;

/** Disconnects the process's client, if any; the next `getDatabase()` opens a new one. */
export async function closeDatabase(): Promise<void> {
  const holder = globalThis as GlobalWithDatabase;
  const existing = holder[GLOBAL_KEY];
  delete holder[GLOBAL_KEY];
  if (existing) await disconnectDatabase(existing.client);
}

/**
 * Closes every connection a client from `openDatabase` holds: Prisma's and,
 * on PostgreSQL, the hot path's pool (`postgresStatements`), so a process or
 * a test that is done exits at once. Like `$disconnect`, it does not retire
 * the client: used again, it connects again.
 */
export async function disconnectDatabase(client: StudioDatabase): Promise<void> {
  await writers.get(client)?.close();
  await Promise.all([client.$disconnect(), statementPools.get(client)?.end()]);
}

/**
 * Applies the committed migrations to the process's database (`applyMigrations`),
 * then returns its client: what a process does once at its start, before any
 * store is used.
 */
export async function prepareDatabase(url: string = databaseUrl()): Promise<StudioDatabase> {
  await applyMigrations(url);
  return getDatabase();
}

/**
 * A fresh client on the database at `url`: a SQLite file (`file:/abs/path.db`)
 * or a PostgreSQL database (`postgresql://…`). It does not migrate (see
 * `applyMigrations`). The caller disconnects it.
 */
export function openDatabase(url: string): StudioDatabase {
  if (databaseProvider(url) === "postgresql") {
    // The PostgreSQL client has the same model API; its type differs only in provider-only extras the stores never use.
    // A small pool per process: a scaled-out studio runs many processes on one server (PostgreSQL allows 100 connections by default).
    const adapter = new PrismaPg({ connectionString: url, max: POSTGRES_POOL_SIZE });
    const client = new PostgresPrismaClient({ adapter }) as unknown as StudioDatabase;
    providers.set(client, "postgresql");
    statementPools.set(client, new PostgresStatements(url));
    return client;
  }
  const filePath = databaseFilePath(url);
  const holder: ConnectionHolder = { current: null };
  const client = new PrismaClient({ adapter: withPragmas(new PrismaBetterSQLite3({ url: `file:${filePath}`, timeout: 5000 }), holder) });
  connections.set(client, holder);
  providers.set(client, "sqlite");
  // Read alone (not readEnvironment): a client opens in tests and scripts whose other variables are not the studio's concern.
  const threaded = EnvironmentSchema.shape.STUDIO_SQLITE_WRITER.parse(process.env.STUDIO_SQLITE_WRITER) === "thread";
  writers.set(client, (threaded ? SqliteWriter.open(filePath, CONNECTION_PRAGMAS) : null) ?? new InlineSqliteWriter(() => sqliteConnection(client)));
  return client;
}

/** The provider of a client from `openDatabase`; null for others (e.g. a test's own client). */
export function providerOf(client: StudioDatabase): DatabaseProvider | null {
  return providers.get(client) ?? null;
}

// In its own module so the inline writer (which database.ts builds) can name it without importing this one back.
export type { SqliteConnection };

export async function sqliteConnection(client: StudioDatabase): Promise<SqliteConnection | null> {
  const holder = connections.get(client);
  if (!holder) {
    // PostgreSQL has no such connection: its hot paths run on `postgresStatements`, the rest on Prisma queries.
    if (providers.get(client) !== "postgresql") warnOnce();
    return null;
  }
  // Prisma connects lazily and again after $disconnect; make sure this client has a live connection.
  if (!holder.current || !holder.current.database.open) await client.$connect();
  return holder.current;
}

/**
 * Where a SQLite client from `openDatabase` writes runs (their creation and
 * commits): a thread of its own (sqlite-writer.ts), or, with
 * STUDIO_SQLITE_WRITER=inline or a database only one connection can see (in
 * memory), its own connection (sqlite-inline-writer.ts). Null for other
 * clients, whose stores then ask Prisma.
 */
export function sqliteWriter(client: StudioDatabase): RunWrites | null {
  return writers.get(client) ?? null;
}

/**
 * The prepared-statement pool beside a PostgreSQL client from `openDatabase`,
 * for the run hot path (see postgres-statements.ts); null for other clients,
 * whose stores then run Prisma queries.
 */
export function postgresStatements(client: StudioDatabase): PostgresStatements | null {
  return statementPools.get(client) ?? null;
}

/** Wraps the adapter factory so every connection it opens gets CONNECTION_PRAGMAS and is remembered for `sqliteConnection`. */
type AdapterFactory = Pick<PrismaBetterSQLite3, "provider" | "adapterName" | "connect" | "connectToShadowDb">;
type AdapterConnection = Awaited<ReturnType<PrismaBetterSQLite3["connect"]>>;
interface ConnectionHolder {
  current: SqliteConnection | null;
}

/** Said once per process: a hot path is on Prisma queries (several times slower) because the client was not opened here. */
export const PREPARED_PATH_UNAVAILABLE = "[studio] a database client without its SQLite connection: hot paths fall back to Prisma queries";
let warned = false;
function warnOnce(): void {
  if (warned) return;
  warned = true;
  console.warn(PREPARED_PATH_UNAVAILABLE);
}

/**
 * Kept on globalThis, like the client itself: the production build bundles
 * this module into several chunks, each with its own module state, and a
 * client opened through one copy must be found by the others (otherwise the
 * hot paths quietly fall back to Prisma queries).
 */
const CONNECTIONS_KEY = Symbol.for("neurosurfer.sqlite-connections");
const connections: WeakMap<StudioDatabase, ConnectionHolder> = ((globalThis as { [CONNECTIONS_KEY]?: WeakMap<StudioDatabase, ConnectionHolder> })[
  CONNECTIONS_KEY
] ??= new WeakMap());

const PROVIDERS_KEY = Symbol.for("neurosurfer.database-providers");
const providers: WeakMap<StudioDatabase, DatabaseProvider> = ((globalThis as { [PROVIDERS_KEY]?: WeakMap<StudioDatabase, DatabaseProvider> })[
  PROVIDERS_KEY
] ??= new WeakMap());

const WRITERS_KEY = Symbol.for("neurosurfer.sqlite-writers");
const writers: WeakMap<StudioDatabase, RunWrites> = ((globalThis as { [WRITERS_KEY]?: WeakMap<StudioDatabase, RunWrites> })[WRITERS_KEY] ??= new WeakMap());

const STATEMENT_POOLS_KEY = Symbol.for("neurosurfer.postgres-statement-pools");
const statementPools: WeakMap<StudioDatabase, PostgresStatements> = ((globalThis as { [STATEMENT_POOLS_KEY]?: WeakMap<StudioDatabase, PostgresStatements> })[
  STATEMENT_POOLS_KEY
] ??= new WeakMap());

function withPragmas(factory: PrismaBetterSQLite3, holder: ConnectionHolder): AdapterFactory {
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    async connect() {
      const connection = await factory.connect();
      await connection.executeScript(CONNECTION_PRAGMAS);
      holder.current = exposeConnection(connection);
      return connection;
    },
    connectToShadowDb: () => factory.connectToShadowDb(),
  };
}

/** The adapter keeps its better-sqlite3 handle in a public `client` field; its transactions share one lock. */
function exposeConnection(connection: AdapterConnection): SqliteConnection {
  const database = (connection as unknown as { client: BetterSqlite3.Database }).client;
  immediateTransactions(database);
  return {
    database,
    async transaction() {
      const transaction = await connection.startTransaction();
      return { release: () => transaction.commit() };
    },
  };
}

/**
 * The adapter prepares `BEGIN` anew for every transaction it starts. Here it
 * gets BEGIN IMMEDIATE, prepared once:
 * - IMMEDIATE takes the write lock at the start. The run writer's thread
 *   (sqlite-writer.ts) commits on a connection of its own, and a deferred
 *   transaction that read before that commit and wrote after it would fail
 *   with SQLITE_BUSY_SNAPSHOT; one that holds the lock from its start waits
 *   its turn (busy_timeout) instead.
 * - Once: preparing was most of what a transaction cost on the busy paths.
 */
function immediateTransactions(database: BetterSqlite3.Database): void {
  const prepare = database.prepare.bind(database);
  let begin: BetterSqlite3.Statement | null = null;
  database.prepare = ((sql: string) => (sql === "BEGIN" ? (begin ??= prepare("BEGIN IMMEDIATE")) : prepare(sql))) as typeof database.prepare;
}
