import { PrismaPg } from "@prisma/adapter-pg";

/**
 * The PostgreSQL driver adapter for Prisma's CLI (prisma.config.ts), with one
 * workaround: Prisma's schema engine reads the catalog, whose columns of type
 * `name` (and `"char"`) the adapter refuses ("Column type 'name' could not be
 * deserialized", prisma/orm#27403, open), so `migrate deploy` and `db pull`
 * fail on every database. Both types are text as pg returns them; the results
 * are labelled text before the adapter maps their types. The studio's own
 * client never reads such columns and uses the adapter unchanged. This file is
 * loaded only by the Prisma CLI's process (prisma.config.ts).
 */
const CATALOG_TEXT_TYPES = new Set([18 /* "char" */, 19 /* name */]);
const TEXT = 25;

type Result = { fields: Array<{ dataTypeID: number }> };
type Queryable = { performIO(query: unknown): Promise<Result> };

let patched = false;

/**
 * The schema engine arms a 10 s timer on PostgreSQL that it never clears, so the
 * CLI lingers 10 s after its work is done (every `migrate deploy`, every studio
 * start). Such timers are unref'd: they still fire if anything else keeps the
 * process alive, but no longer hold it open on their own; pending database
 * work keeps its sockets, and so the process, alive.
 */
function releaseLongTimers(): void {
  const setTimer = globalThis.setTimeout;
  const patchedSetTimeout = ((handler: (...args: unknown[]) => void, delay?: number, ...args: unknown[]) => {
    const timer = setTimer(handler, delay, ...args);
    if ((delay ?? 0) >= 10_000) timer.unref();
    return timer;
  }) as typeof setTimeout;
  globalThis.setTimeout = Object.assign(patchedSetTimeout, setTimer);
}

export function postgresCliAdapter(connectionString: string): PrismaPg {
  releaseLongTimers();
  // allowExitOnIdle: the CLI exits when done rather than holding idle connections for the pool's 10 s timeout.
  const factory = new PrismaPg({ connectionString, allowExitOnIdle: true });
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = await connect();
    if (!patched) {
      // The adapter and its transactions share this prototype (PgQueryable).
      const prototype = Object.getPrototypeOf(Object.getPrototypeOf(adapter)) as Queryable;
      const performIO = prototype.performIO;
      prototype.performIO = async function (this: Queryable, query: unknown) {
        const result = await performIO.call(this, query);
        for (const field of result?.fields ?? []) if (CATALOG_TEXT_TYPES.has(field.dataTypeID)) field.dataTypeID = TEXT;
        return result;
      };
      patched = true;
    }
    return adapter;
  };
  return factory;
}
