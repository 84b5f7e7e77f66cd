import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import type BetterSqlite3 from "better-sqlite3";
import { databaseFilePath, databaseUrl } from "./data-folder";
import { PrismaClient } from "./generated/client";
import { migrate, type MigrateOptions } from "./migrate";

/** The studio's Prisma client (SQLite through better-sqlite3). */
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
 * The process's database client, kept on globalThis so Next.js dev reloads
 * reuse it. The first call applies pending migrations (synchronously, before
 * the client exists).
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

/** Disconnects the process's client, if any; the next `getDatabase()` opens a new one. */
export async function closeDatabase(): Promise<void> {
  const holder = globalThis as GlobalWithDatabase;
  const existing = holder[GLOBAL_KEY];
  delete holder[GLOBAL_KEY];
  await existing?.client.$disconnect();
}

/**
 * A fresh client on the SQLite file at `url` (`file:/abs/path.db`), migrated
 * first; for tests and scripts. The caller disconnects it.
 */
export function openDatabase(url: string, options: MigrateOptions = {}): StudioDatabase {
  const filePath = databaseFilePath(url);
  migrate(filePath, options);
  const holder: ConnectionHolder = { current: null };
  const client = new PrismaClient({ adapter: withPragmas(new PrismaBetterSQLite3({ url: `file:${filePath}`, timeout: 5000 }), holder) });
  connections.set(client, holder);
  return client;
}

/**
 * The SQLite connection under a client from `openDatabase`, for a hot write
 * path that runs prepared statements instead of Prisma queries (each of which
 * is compiled anew). `transaction()` takes the same lock Prisma's own
 * transactions take and issues BEGIN; the caller runs its statements, COMMIT
 * (or ROLLBACK), then `release()`s. Null for other clients.
 */
export interface SqliteConnection {
  database: BetterSqlite3.Database;
  transaction(): Promise<{ release: () => Promise<void> }>;
}

export async function sqliteConnection(client: StudioDatabase): Promise<SqliteConnection | null> {
  const holder = connections.get(client);
  if (!holder) {
    warnOnce();
    return null;
  }
  // Prisma connects lazily and again after $disconnect; make sure this client has a live connection.
  if (!holder.current || !holder.current.database.open) await client.$connect();
  return holder.current;
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
  return {
    database,
    async transaction() {
      const transaction = await connection.startTransaction();
      return { release: () => transaction.commit() };
    },
  };
}
