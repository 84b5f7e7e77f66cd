import { providerOf, type StudioDatabase } from "./database";
import type { Prisma } from "./generated/sqlite/client";
import { markedError } from "../marked-error";

/**
 * Copies a studio's data from one database to another (SQLite → PostgreSQL,
 * or back): `npm run db:copy` (scripts/copy-database.ts) does this after
 * migrating the target.
 *
 * Every row is copied as stored: ids, times and JSON text are the same on the
 * target, and secrets stay ciphertext (never decrypted) together with the Meta
 * row that checks the key, so the studio on the target needs the same key
 * (STUDIO_SECRET_KEY or the key file) and refuses another exactly as the
 * source would. People, their invitations, access tokens (hashes) and shares
 * are copied with the workflows, so everyone signs in on the target as on the
 * source; sign-in sessions and editors' webhook test listens (minutes long,
 * tied to a browser) are never copied; run history (runs, steps, events,
 * approvals with their votes and notifications, agent checkpoints) and the
 * security log (AuditEntry: who did what) only with `runs: true`.
 *
 * The target must be empty: the copy refuses a database that already holds
 * people, workflows, runs, secrets, MCP servers or Meta rows rather than merge into
 * it. Everything is written in one transaction on the target (all or
 * nothing), read in one transaction on the source (one consistent snapshot),
 * in batches of COPY_BATCH rows so a long history never sits in memory at once.
 */
export const COPY_BATCH = 500;

/** The tables copied, in an order that satisfies the foreign keys. */
// Schedule firings go with the configuration: they are where each schedule goes on from, so a copied studio neither fires a
// slot again nor counts every slot since publishing as missed.
// Pins (test data of a workflow's editor) go with it too, and so do evaluation datasets, the retention settings (how long runs are kept) and the model prices.
// People come first (a workflow names its owner), with their invitations, tokens (hashes only), shares and webhooks.
export const CONFIGURATION_TABLES = [
  "person",
  "invitation",
  "personalAccessToken",
  "workflow",
  "workflowVersion",
  "workflowShare",
  "notificationWebhook",
  "webhookEndpoint",
  "scheduleFiring",
  "workflowPin",
  "evaluationDataset",
  "evaluationDatasetRow",
  "retentionPolicy",
  "modelPrice",
  "grant",
  "secret",
  "meta",
  "mcpServer",
] as const;
// The security log last: the all-or-nothing test counts on a clash there leaving every other table empty.
export const HISTORY_TABLES = [
  "run",
  "step",
  "runEvent",
  "approval",
  "approvalVote",
  "approvalNotification",
  "agentCheckpoint",
  "keptOutputPart",
  "runModelUsage",
  "webhookDelivery",
  // Evaluations are history: their rows name the runs they started.
  "evaluationRun",
  "evaluationResult",
  "auditEntry",
] as const;
/**
 * The tables never copied: sign-in sessions, editors' webhook test listens
 * (minutes long, tied to a browser) and the run queue's drives (a worker's
 * hold on a run; the runs copied while running are asked for again on a
 * PostgreSQL target, scripts/copy-database.ts). Every other table of the schema is in one
 * of the lists above; a test holds the three lists to the schema's models.
 */
export const NOT_COPIED_TABLES = ["studioSession", "webhookTestListen", "runDrive"] as const;
export type CopiedTable = (typeof CONFIGURATION_TABLES)[number] | (typeof HISTORY_TABLES)[number];

export interface CopyOptions {
  /** Also copy run history and the security log. */
  runs: boolean;
}

export interface CopyReport {
  /** Rows copied per table; the history tables are 0 without `runs`. */
  counts: Record<CopiedTable, number>;
  /** Runs copied while unfinished, as they were (by status). */
  unfinishedRuns: { running: number; awaiting_input: number };
  /** Runs in the source left behind because `runs` was not asked. */
  runsNotCopied: number;
}

/** The target already holds data; nothing was written. */
export class TargetNotEmptyError extends markedError("neurosurfer.target-not-empty", "TargetNotEmptyError") {
  constructor(readonly found: Partial<Record<CopiedTable, number>>) {
    const listed = Object.entries(found)
      .map(([table, count]) => `${count} ${table} row${count === 1 ? "" : "s"}`)
      .join(", ");
    super(
      `The target database is not empty (${listed}): the copy does not merge into existing data, and nothing was copied. ` +
        `Copy into a new, empty database (a studio that has started on one has already created its example workflows and key check there).`,
    );
  }
}

/** Each table's primary key: batches are read in its order. */
const KEYS: Record<CopiedTable, string> = {
  person: "id",
  invitation: "id",
  personalAccessToken: "id",
  workflowShare: "id",
  notificationWebhook: "id",
  approvalVote: "id",
  approvalNotification: "id",
  workflow: "id",
  workflowVersion: "id",
  webhookEndpoint: "path",
  scheduleFiring: "id",
  workflowPin: "id",
  evaluationDataset: "id",
  evaluationDatasetRow: "id",
  retentionPolicy: "id",
  modelPrice: "id",
  grant: "id",
  secret: "name",
  meta: "key",
  mcpServer: "id",
  run: "id",
  step: "id",
  runEvent: "id",
  approval: "id",
  agentCheckpoint: "id",
  keptOutputPart: "id",
  runModelUsage: "id",
  webhookDelivery: "id",
  evaluationRun: "id",
  evaluationResult: "id",
  auditEntry: "id",
};

/** Tables whose rows mean the target is in use. */
const MUST_BE_EMPTY = ["person", "workflow", "run", "secret", "mcpServer", "meta"] as const satisfies readonly CopiedTable[];

type Row = Record<string, unknown>;
/** What the copy uses of a model's delegate (every model's has these). */
interface RowDelegate {
  findMany(args: { where?: Row; orderBy: Row; take: number }): Promise<Row[]>;
  createMany(args: { data: Row[] }): Promise<{ count: number }>;
  count(args?: { where?: Row }): Promise<number>;
}
type Client = StudioDatabase | Prisma.TransactionClient;
const delegate = (client: Client, table: CopiedTable): RowDelegate => (client as unknown as Record<CopiedTable, RowDelegate>)[table];

/** Long enough for a large history; the default (5 s) is meant for requests. */
const LONG_TRANSACTION = { maxWait: 60_000, timeout: 6 * 60 * 60 * 1000 } as const;

export async function copyStudioData(from: StudioDatabase, to: StudioDatabase, options: CopyOptions): Promise<CopyReport> {
  const fromProvider = providerOf(from);
  const toProvider = providerOf(to);
  if (!fromProvider || !toProvider) throw new Error("copyStudioData needs clients made by openDatabase (it must know their providers).");
  if (from === to) throw new Error("The source and the target are the same database.");
  const tables: CopiedTable[] = [...CONFIGURATION_TABLES, ...(options.runs ? HISTORY_TABLES : [])];

  // PostgreSQL's default isolation gives each statement its own snapshot; repeatable read keeps one for the whole copy.
  // (The client is typed as SQLite's, which knows only Serializable; the PostgreSQL client under it takes this.)
  const readOptions = (fromProvider === "postgresql" ? { ...LONG_TRANSACTION, isolationLevel: "RepeatableRead" } : LONG_TRANSACTION) as typeof LONG_TRANSACTION;
  return from.$transaction(
    (source) =>
      to.$transaction(async (target) => {
        await refuseNonEmpty(target);
        const counts = Object.fromEntries([...CONFIGURATION_TABLES, ...HISTORY_TABLES].map((table) => [table, 0])) as Record<CopiedTable, number>;
        for (const table of tables) counts[table] = await copyTable(source, target, table);
        // An id written explicitly does not move PostgreSQL's sequence (SQLite's AUTOINCREMENT follows by itself): the next event would clash.
        if (toProvider === "postgresql" && counts.runEvent > 0) {
          await target.$queryRawUnsafe(`SELECT setval(pg_get_serial_sequence('"RunEvent"', 'id'), (SELECT max(id) FROM "RunEvent"))`);
        }
        const [running, awaitingInput, allRuns] = await Promise.all([
          options.runs ? source.run.count({ where: { status: "running" } }) : 0,
          options.runs ? source.run.count({ where: { status: "awaiting_input" } }) : 0,
          source.run.count(),
        ]);
        return { counts, unfinishedRuns: { running, awaiting_input: awaitingInput }, runsNotCopied: options.runs ? 0 : allRuns };
      }, LONG_TRANSACTION),
    readOptions,
  );
}

async function refuseNonEmpty(target: Prisma.TransactionClient): Promise<void> {
  const found: Partial<Record<CopiedTable, number>> = {};
  for (const table of MUST_BE_EMPTY) {
    const count = await delegate(target, table).count();
    if (count > 0) found[table] = count;
  }
  if (Object.keys(found).length > 0) throw new TargetNotEmptyError(found);
}

/** Tables whose rows are large: fewer at a time (a kept output's part is up to 1 MB: 500 of them would be 500 MB). */
const SMALLER_BATCHES: Partial<Record<CopiedTable, number>> = { keptOutputPart: 8 };

/** Copies one table in batches of COPY_BATCH (or its smaller batch), in primary-key order; the rows copied. */
async function copyTable(source: Prisma.TransactionClient, target: Prisma.TransactionClient, table: CopiedTable): Promise<number> {
  const key = KEYS[table];
  const batch = SMALLER_BATCHES[table] ?? COPY_BATCH;
  let copied = 0;
  let last: unknown;
  for (;;) {
    const rows = await delegate(source, table).findMany({
      ...(last === undefined ? {} : { where: { [key]: { gt: last } } }),
      orderBy: { [key]: "asc" },
      take: batch,
    });
    if (rows.length === 0) return copied;
    await delegate(target, table).createMany({ data: rows });
    copied += rows.length;
    last = rows[rows.length - 1]![key];
    if (rows.length < batch) return copied;
  }
}
