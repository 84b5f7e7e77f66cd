import { defaultPool, type SecretResolver, type ToolPool } from "@/lib/tools";
import { getDatabase, getSecretBox, secretResolver, type StudioDatabase } from "@/lib/persistence";
import { PrismaRunStore } from "@/lib/persistence/run-store";
import { RunEventBus } from "@/lib/workflow/event-bus";
import { RunEngine } from "@/lib/workflow/run-engine";

/** The server-side pieces every route shares: one of each per process. */
export interface Studio {
  database: StudioDatabase;
  bus: RunEventBus;
  engine: RunEngine;
  pool: () => ToolPool;
  secrets: SecretResolver;
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
  const database = getDatabase();
  await getSecretBox(database);
  const bus = new RunEventBus();
  const secrets = secretResolver(database);
  // One pool for the process: built-in tools are stateless apart from the job table.
  const tools = defaultPool();
  const pool = () => tools;
  const engine = new RunEngine({
    store: new PrismaRunStore(database),
    bus,
    pool,
    secrets,
    log: (message, error) => console.error(`[studio] ${message}`, error ?? ""),
  });
  const resumed = await engine.resumeAll();
  if (resumed.length > 0) console.log(`[studio] resumed ${resumed.length} unfinished run(s)`);
  return { database, bus, engine, pool, secrets };
}
