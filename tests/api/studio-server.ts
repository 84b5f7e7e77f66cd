import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, inject } from "vitest";
import { openDatabase, type DatabaseProvider, type StudioDatabase } from "@/lib/persistence";
import { createEmptyPostgresDatabase, createPostgresDatabase, createSqliteDatabase, dropPostgresDatabase } from "@/lib/persistence/temp-database";
import { launchStudio, signalGroup, startCommand as startCommandIn, stopStudio, studioEnvironment, waitUntilAnswering, type LaunchedStudio } from "../support/studio-launch";
import { testRunFolder, testRunMarker } from "../support/test-run";
import { ApiClient } from "./api-client";

/**
 * Starts the real studio (the production build, started exactly as `npm start`
 * does) as a child process with its own data folder and access token, for
 * tests that drive the HTTP API the way a browser or script would. One server
 * per test file; `restart()` keeps the data folder, port and token, so a test
 * can SIGKILL the process and see what survives.
 *
 * The database is the embedded SQLite file in the data folder, or, when
 * STUDIO_TEST_DATABASE=postgresql (the vitest project "api-postgresql"), a
 * fresh database on the test PostgreSQL server; `stop()` drops it. Either is
 * a copy of a template migrated once (lib/persistence/temp-database.ts), so
 * a start pays for a file copy or a CREATE DATABASE rather than for applying
 * every migration again (seconds of CPU per server, hundreds of servers per
 * run); the studio still checks it at its start, as in production.
 * `emptyDatabase: true` starts on nothing, for the tests of a first start.
 *
 * The harness owns what it starts. The server leads a process group of its
 * own; a start that fails or times out kills that group, drops the database
 * and removes the data folder before it throws (with what the server
 * printed). The process, its database and its folder are named after the test
 * run (tests/support/test-run.ts), so whatever a crashed worker leaves is
 * removed at the run's end by the global setup's teardown all the same.
 *
 * A test file uses `setupStudioServer()`, which starts the server before its
 * tests and stops it after them, pass or fail.
 */

/** The database the API tests run the studio on: STUDIO_TEST_DATABASE=postgresql, else SQLite. */
export const testDatabaseProvider = (): DatabaseProvider => (process.env.STUDIO_TEST_DATABASE === "postgresql" ? "postgresql" : "sqlite");

export const REPO_ROOT = path.resolve(import.meta.dirname, "../..");
const NEXT_BIN = path.join(REPO_ROOT, "node_modules/.bin/next");
const BUILD_ID = path.join(REPO_ROOT, ".next/BUILD_ID");

/** What the production build is made of: a change to any of these makes `.next` stale. */
const BUILD_INPUTS = ["app", "lib", "components", "public", "prisma", "instrumentation.ts", "proxy.ts", "next.config.ts", "package.json"];

export interface StudioServerOptions {
  /** The data folder; default a fresh temporary folder, removed by `stop()`. */
  dataDir?: string;
  /** Extra environment, e.g. `{ STUDIO_PASSWORD: "..." }`. */
  env?: Record<string, string>;
  /** Milliseconds to wait for the server to answer; default STUDIO_TEST_START_TIMEOUT_MS or 120 s (a busy machine is slow). */
  startTimeoutMs?: number;
  /** Start as a person does, with no STUDIO_TOKEN: the studio makes its token file, which `token` then reads. */
  tokenFile?: boolean;
  /** The database; default `testDatabaseProvider()`. */
  database?: DatabaseProvider;
  /** Start on an empty database that the studio migrates itself, as on its first start; default a migrated copy. */
  emptyDatabase?: boolean;
}

export interface StudioServer {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  readonly port: number;
  readonly dataDir: string;
  /** Which database the studio runs on, and its URL. */
  readonly provider: DatabaseProvider;
  readonly databaseUrl: string;
  /** A Prisma client on the studio's database, for a test that must reach past the API (the caller disconnects it). */
  openDatabase(): StudioDatabase;
  /**
   * On PostgreSQL, every row of every table as text (what a dump would hold),
   * for tests that search the stored data for a value; on SQLite the data
   * folder's files already are the database, and this is "".
   */
  databaseText(): Promise<string>;
  /** The access token (STUDIO_TOKEN) scripts send as `Authorization: Bearer`. */
  readonly token: string;
  /** A client that authenticates with the token, as a script would. */
  client(): ApiClient;
  /** The pid of the current server process. */
  readonly pid: number;
  /** Everything the server printed on stdout and stderr, across restarts. */
  logs(): string;
  /** Sends `signal` to the process (default SIGKILL) and waits until it has exited. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Starts the server again on the same data folder and port (stopping it first if it still runs). */
  restart(): Promise<void>;
  /** Stops the server for good and removes a data folder this harness created. */
  stop(): Promise<void>;
}

export async function startStudioServer(options: StudioServerOptions = {}): Promise<StudioServer> {
  ensureBuild();
  const ownsDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? testRunFolder("api-data");
  mkdirSync(dataDir, { recursive: true });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const environment = studioEnvironment({});
  const provider = options.database ?? testDatabaseProvider();
  const ownsDatabase = provider === "postgresql" && options.env?.DATABASE_URL === undefined;
  const databaseUrl = options.env?.DATABASE_URL ?? (await freshDatabase(provider, dataDir, options.emptyDatabase === true));
  environment.DATABASE_URL = databaseUrl;
  const givenToken = options.tokenFile ? null : (options.env?.STUDIO_TOKEN ?? `test-${randomBytes(24).toString("base64url")}`);
  Object.assign(environment, { STUDIO_DATA_DIR: dataDir, ...options.env, PORT: String(port), ...testRunMarker() });
  if (givenToken !== null) environment.STUDIO_TOKEN = givenToken;

  let output = "";
  let studio: LaunchedStudio | null = null;

  const launch = async () => {
    const launched = launchStudio(REPO_ROOT, environment, (text) => (output += text));
    studio = launched;
    try {
      // Any HTTP answer (401 with a password set) means the server is up.
      const exitedEarly = () => (launched.running() ? null : `the server exited (code ${launched.exitCode()}) before answering`);
      await waitUntilAnswering(`${url}/api/auth/logout`, options.startTimeoutMs ?? defaultStartTimeoutMs(), exitedEarly, { method: "POST" });
    } catch (error) {
      await killGroup();
      throw new Error(`${(error as Error).message}. What it printed:\n${tail(output)}`);
    }
  };

  const running = () => {
    const current = studio;
    return current?.running() ? current.child : null;
  };

  /** Signals the server process alone, as the operating system would kill it, and waits until it has exited. */
  const kill = async (signal: NodeJS.Signals = "SIGKILL") => {
    const current = running();
    if (!current) return;
    process.kill(current.pid!, signal);
    await studio?.exited;
  };

  /** SIGKILLs the server's whole process group (what it started and did not stop too) and waits for the server's exit. */
  const killGroup = async () => {
    if (!studio) return;
    signalGroup(studio.child.pid, "SIGKILL");
    await studio.exited;
  };

  const stopGracefully = async () => {
    if (studio) await stopStudio(studio, 5_000);
  };

  const removeOwned = async () => {
    if (ownsDataDir) rmSync(dataDir, { recursive: true, force: true });
    if (ownsDatabase) await dropPostgresDatabase(databaseUrl);
  };

  try {
    await launch();
  } catch (error) {
    await removeOwned();
    const removed = [ownsDataDir && `its data folder ${dataDir}`, ownsDatabase && `its database ${databaseUrl}`].filter(Boolean);
    throw new Error(`${(error as Error).message}${removed.length > 0 ? `\n(The process group was killed; ${removed.join(" and ")} removed.)` : ""}`);
  }
  const token = givenToken ?? readFileSync(path.join(dataDir, "access-token"), "utf8").trim();
  return {
    url,
    port,
    dataDir,
    provider,
    databaseUrl,
    openDatabase: () => openDatabase(databaseUrl),
    databaseText: () => (provider === "postgresql" ? postgresText(databaseUrl) : Promise.resolve("")),
    token,
    client: () => new ApiClient(url, { token }),
    get pid() {
      return studio?.child.pid ?? -1;
    },
    logs: () => output,
    kill,
    restart: async () => {
      await stopGracefully();
      await launch();
    },
    stop: async () => {
      await stopGracefully();
      await removeOwned();
    },
  };
}

/**
 * For a test file whose several processes (web, worker) share one database: a
 * fresh PostgreSQL database made before the file's tests and dropped after
 * them; migrated, or with `emptyDatabase` empty (the processes started on it
 * migrate it, each applying every migration once between them). The returned
 * environment (DATABASE_URL, a shared STUDIO_SECRET_KEY, and `env`) is filled
 * in by the time later hooks and the tests read it; call this before
 * `setupStudioServer(() => ({ env: { ...shared } }))`, so it is undone last.
 */
export function setupSharedPostgresDatabase(env: Record<string, string> = {}, options: { emptyDatabase?: boolean } = {}): Record<string, string> {
  const shared: Record<string, string> = { STUDIO_SECRET_KEY: randomBytes(32).toString("base64"), ...env };
  beforeAll(async () => {
    shared.DATABASE_URL = options.emptyDatabase ? await createEmptyPostgresDatabase() : await createPostgresDatabase();
  });
  afterAll(async () => {
    if (shared.DATABASE_URL) await dropPostgresDatabase(shared.DATABASE_URL);
  });
  return shared;
}

/**
 * The database a server starts on when the test names none: a new PostgreSQL
 * database, or the SQLite file in its data folder (left as it is when a test
 * hands over a data folder that has one), migrated unless `empty`.
 */
async function freshDatabase(provider: DatabaseProvider, dataDir: string, empty: boolean): Promise<string> {
  if (provider === "postgresql") return empty ? createEmptyPostgresDatabase() : createPostgresDatabase();
  const file = path.join(dataDir, "studio.db");
  if (empty || existsSync(file)) return `file:${file}`;
  return createSqliteDatabase(file);
}

/** How long a server start may take before it counts as failed. */
function defaultStartTimeoutMs(): number {
  const configured = Number(process.env.STUDIO_TEST_START_TIMEOUT_MS);
  return Number.isFinite(configured) && configured > 0 ? configured : 120_000;
}

/** The end of a long output, where a start's failure is. */
function tail(text: string, characters = 8_000): string {
  if (!text) return "(nothing)";
  return text.length <= characters ? text : `[… ${text.length - characters} characters before]\n${text.slice(-characters)}`;
}

/** Enough for a build (ensureBuild, when `.next` is stale) and a start on a busy machine. */
const START_HOOK_TIMEOUT_MS = 1_200_000;

/**
 * The one way a test file gets a studio server: started before the file's
 * tests (in a `beforeAll` registered where this is called) and stopped after
 * them, pass or fail (`afterAll`), with its data folder and database. The
 * object it returns stands for the server from the first test on; `options`
 * may be a function, read when the server starts, when they depend on what an
 * earlier `beforeAll` made.
 */
export function setupStudioServer(options: StudioServerOptions | (() => StudioServerOptions) = {}): StudioServer {
  let current: StudioServer | undefined;
  beforeAll(async () => {
    current = await startStudioServer(typeof options === "function" ? options() : options);
  }, START_HOOK_TIMEOUT_MS);
  afterAll(async () => {
    const server = current;
    current = undefined;
    await server?.stop();
  }, 60_000);
  const started = (): StudioServer => {
    if (!current) throw new Error("The studio server is not running: use it in a test or in a hook registered after setupStudioServer().");
    return current;
  };
  return {
    get url() {
      return started().url;
    },
    get port() {
      return started().port;
    },
    get dataDir() {
      return started().dataDir;
    },
    get provider() {
      return started().provider;
    },
    get databaseUrl() {
      return started().databaseUrl;
    },
    get token() {
      return started().token;
    },
    get pid() {
      return started().pid;
    },
    openDatabase: () => started().openDatabase(),
    databaseText: () => started().databaseText(),
    client: () => started().client(),
    logs: () => started().logs(),
    kill: (signal) => started().kill(signal),
    restart: () => started().restart(),
    stop: () => started().stop(),
  };
}

/** `npm start`'s command, as the tests run it (tests/support/studio-launch.ts). */
export function startCommand(): string[] {
  return startCommandIn(REPO_ROOT);
}

async function postgresText(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = await client.query<{ name: string }>("SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'");
    const texts: string[] = [];
    for (const { name } of tables.rows) {
      const rows = await client.query<{ row: string }>(`SELECT row_to_json(t)::text AS row FROM "${name.replaceAll('"', '""')}" t`);
      texts.push(...rows.rows.map((row) => row.row));
    }
    return texts.join("\n");
  } finally {
    await client.end();
  }
}

/**
 * How long a run cut off by a SIGKILL may take to move on once the server is
 * back. SQLite: the restarted server resumes it at once. PostgreSQL: its job
 * was held by the killed process and is handed on when that process's
 * heartbeat is missed (about 10 s, plus the next supervision pass).
 */
export function takeoverMs(server: StudioServer): number {
  return server.provider === "postgresql" ? 60_000 : 20_000;
}

/** A port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Builds when `.next/BUILD_ID` is missing or older than a source file changed
 * before this test run started, at most once per run. `npm test` builds before
 * vitest, so this only costs time when running the API tests by hand after an
 * edit. A lock folder keeps parallel test files from building at the same
 * time; the first file to take it decides for the whole run (the others read
 * its result), so no build ever pulls `.next` out from under a server another
 * file is running, and files saved during the run do not count.
 */
export function ensureBuild(): void {
  const changedBefore = inject("testRunStartedAt");
  const buildIsStale = () => isStale(changedBefore);
  const name = `neurosurfer-studio-build-${Buffer.from(REPO_ROOT).toString("hex").slice(-24)}`;
  const lock = path.join(os.tmpdir(), `${name}.lock`);
  const outcome = path.join(os.tmpdir(), `${name}-${changedBefore}.outcome`);
  const decided = () => {
    try {
      const failure = readFileSync(outcome, "utf8");
      if (failure) throw new Error(failure);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
      throw error;
    }
  };
  if (decided() || !buildIsStale()) return;
  const deadline = Date.now() + 20 * 60_000;
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(path.join(lock, "holder"), String(process.pid));
      break;
    } catch {
      // A lock whose holder is gone is left over from a killed run. (Not its age: on a busy machine a build takes minutes.)
      if (lockIsAbandoned(lock)) rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`Waited too long for another test file's build (lock ${lock}).`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500);
    }
  }
  let failure: string | null = null;
  try {
    if (decided() || !buildIsStale()) return;
    failure = "";
    const startedAt = new Date();
    const result = spawnSync(NEXT_BIN, ["build"], {
      cwd: REPO_ROOT,
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    });
    if (result.status !== 0) {
      failure = `next build failed:\n${result.stdout}\n${result.stderr}`;
      throw new Error(failure);
    }
    // The build read the sources as they were when it started: a file saved during it must count as newer.
    utimesSync(BUILD_ID, startedAt, startedAt);
  } finally {
    if (failure !== null) writeFileSync(outcome, failure);
    rmSync(lock, { recursive: true, force: true });
  }
}

/** The lock's holder no longer runs (or never wrote its pid, a minute ago or more). */
function lockIsAbandoned(lock: string): boolean {
  let holder: number;
  try {
    holder = Number(readFileSync(path.join(lock, "holder"), "utf8"));
  } catch {
    try {
      return Date.now() - statSync(lock).mtimeMs > 60_000;
    } catch {
      return false; // released meanwhile
    }
  }
  try {
    process.kill(holder, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

function isStale(changedBefore: number): boolean {
  let built: number;
  try {
    built = statSync(BUILD_ID).mtimeMs;
  } catch {
    return true;
  }
  return BUILD_INPUTS.some((input) => newestSource(path.join(REPO_ROOT, input), changedBefore) > built);
}

function newestSource(file: string, changedBefore: number): number {
  let stats;
  try {
    stats = statSync(file);
  } catch {
    return 0;
  }
  if (!stats.isDirectory()) return /\.test\.tsx?$/.test(file) || stats.mtimeMs > changedBefore ? 0 : stats.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(file)) newest = Math.max(newest, newestSource(path.join(file, entry), changedBefore));
  return newest;
}
