// Copies a studio's data into a new database, e.g. from its SQLite file to PostgreSQL:
//   npm run db:copy -- --from file:.data/studio.db --to postgresql://studio:password@db:5432/studio [--runs]
// Stop the studio first. The target is migrated, must be empty, and is written in one transaction.
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { copyStudioData, HISTORY_TABLES, TargetNotEmptyError, type CopiedTable, type CopyReport } from "@/lib/persistence/copy-database";
import { openDatabase, type StudioDatabase } from "@/lib/persistence/database";
import { databaseFilePath } from "@/lib/persistence/data-folder";
import { databaseProvider, displayDatabaseUrl, isPostgresUrl } from "@/lib/persistence/database-provider";
import { applyMigrations } from "@/lib/persistence/migrations";
import { RunQueue } from "@/lib/server/queue/run-queue";

const EXIT_USAGE = 2;

const USAGE = `Usage: npm run db:copy -- --from <url> --to <url> [--runs]

Copies a studio's workflows (with their versions), grants, secrets (still encrypted), MCP servers and
settings from one database to another, new one; with --runs also its run history and security log.
Sign-ins are not copied: sign in again on the new studio.

  --from <url>   the studio's database now: file:/path/to/studio.db or postgresql://user:password@host:5432/name
  --to <url>     an empty database to copy into (migrated first; a file: URL names a new SQLite file)
  --runs         also copy runs, their steps, events, approvals and agent checkpoints, and the security log

Stop the studio before copying. Start it on the target with the same secret key (STUDIO_SECRET_KEY, or the
key file secret.key of its data folder): the secrets are copied encrypted with it.`;

class UsageError extends Error {}

interface Arguments {
  from: string;
  to: string;
  runs: boolean;
}

function parseArguments(argv: readonly string[]): Arguments | "help" {
  const values: Partial<Record<"from" | "to", string>> = {};
  let runs = false;
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index]!;
    if (argument === "--help" || argument === "-h") return "help";
    if (argument === "--runs") {
      runs = true;
      continue;
    }
    const match = /^--(from|to)(?:=(.*))?$/.exec(argument);
    if (!match) throw new UsageError(`Unknown argument "${argument}".`);
    const name = match[1] as "from" | "to";
    const value = match[2] ?? argv[++index];
    if (value === undefined || value === "" || value.startsWith("--")) throw new UsageError(`--${name} needs a database URL.`);
    if (values[name] !== undefined) throw new UsageError(`--${name} is given twice.`);
    values[name] = value;
  }
  for (const name of ["from", "to"] as const) {
    const value = values[name];
    if (value === undefined) throw new UsageError(`--${name} <url> is required.`);
    if (!value.startsWith("file:") && !isPostgresUrl(value)) {
      throw new UsageError(`--${name} must be a file: URL (SQLite) or a postgresql:// URL, not "${displayDatabaseUrl(value)}".`);
    }
    if (value === "file::memory:") throw new UsageError(`--${name} cannot be an in-memory database.`);
  }
  const { from, to } = values as Record<"from" | "to", string>;
  if (sameDatabase(from, to)) throw new UsageError(`--from and --to name the same database (${displayDatabaseUrl(from)}).`);
  if (from.startsWith("file:") && !existsSync(databaseFilePath(from))) throw new UsageError(`There is no SQLite file at ${databaseFilePath(from)}.`);
  return { from, to, runs };
}

/** The same file, or the same PostgreSQL server and database (whatever the credentials). */
function sameDatabase(a: string, b: string): boolean {
  if (databaseProvider(a) !== databaseProvider(b)) return false;
  if (databaseProvider(a) === "sqlite") return databaseFilePath(a) === databaseFilePath(b);
  try {
    const [first, second] = [new URL(a), new URL(b)];
    return first.hostname.toLowerCase() === second.hostname.toLowerCase() && (first.port || "5432") === (second.port || "5432") && first.pathname === second.pathname;
  } catch {
    return a === b;
  }
}

const LABELS: Record<CopiedTable, string> = {
  person: "people",
  invitation: "invitations",
  personalAccessToken: "personal access tokens (hashes)",
  workflowShare: "workflow shares",
  notificationWebhook: "notification webhooks (signing secrets sealed)",
  approvalVote: "approval votes",
  approvalNotification: "approval notifications",
  workflow: "workflows",
  workflowVersion: "workflow versions",
  webhookEndpoint: "live webhooks",
  scheduleFiring: "schedule slots handled",
  workflowPin: "pinned outputs (the editor's test data)",
  evaluationDataset: "evaluation datasets",
  evaluationDatasetRow: "evaluation dataset rows",
  retentionPolicy: "retention settings (how long runs are kept)",
  modelPrice: "model prices",
  grant: "grants",
  secret: "secrets (encrypted)",
  meta: "settings (Meta rows, the key check among them)",
  mcpServer: "MCP servers",
  run: "runs",
  step: "steps",
  runEvent: "run events",
  approval: "approvals",
  agentCheckpoint: "agent checkpoints",
  keptOutputPart: "parts of whole results kept (keep full outputs)",
  runModelUsage: "runs' tokens per model",
  webhookDelivery: "webhook deliveries (idempotency keys)",
  evaluationRun: "evaluations",
  evaluationResult: "evaluation results (one per dataset row)",
  auditEntry: "security log entries",
};

function describeReport(report: CopyReport, runs: boolean, queued: number | null): string {
  const lines = Object.entries(report.counts)
    .filter(([table]) => runs || !(HISTORY_TABLES as readonly string[]).includes(table))
    .map(([table, count]) => `  ${String(count).padStart(7)} ${LABELS[table as CopiedTable]}`);
  const { running, awaiting_input: awaiting } = report.unfinishedRuns;
  if (running + awaiting > 0) {
    lines.push(
      `Of the runs, ${running} were running and ${awaiting} awaiting input, copied as they are: ` +
        (queued === null
          ? `the studio resumes them when it starts on the target.`
          : `the running ones were queued (${queued}), so a worker continues them once the studio starts; one awaiting input continues after a decision in the inbox.`),
    );
  }
  if (report.runsNotCopied > 0) lines.push(`${report.runsNotCopied} run(s) were not copied (add --runs to copy the run history).`);
  return lines.join("\n");
}

/**
 * On PostgreSQL a run is driven when a worker takes its drive from the queue (lib/server/queue), asked for with the run; a run copied while running
 * has none. Ask for one for each, as the studio on SQLite would resume it at its start. The number of runs queued.
 */
async function queueRunningRuns(target: StudioDatabase): Promise<number> {
  const running = await target.run.findMany({ where: { status: "running" }, select: { id: true } });
  const queue = RunQueue.of(target, { log: (message, error) => process.stderr.write(`db:copy: ${message} ${String(error ?? "")}\n`) });
  for (const { id } of running) await queue.send(id);
  return running.length;
}

async function main(argv: readonly string[]): Promise<number> {
  let parsed: Arguments | "help";
  try {
    parsed = parseArguments(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`db:copy: ${error.message}\n\n${USAGE}\n`);
    return EXIT_USAGE;
  }
  if (parsed === "help") {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const { from, to, runs } = parsed;
  const [fromShown, toShown] = [displayDatabaseUrl(from), displayDatabaseUrl(to)];
  let source: StudioDatabase | null = null;
  let target: StudioDatabase | null = null;
  try {
    if (to.startsWith("file:")) mkdirSync(path.dirname(databaseFilePath(to)), { recursive: true });
    process.stdout.write(`Migrating the target ${toShown}…\n`);
    await applyMigrations(to);
    source = openDatabase(from);
    target = openDatabase(to);
    process.stdout.write(`Copying ${fromShown} → ${toShown}${runs ? " (with run history)" : ""}…\n`);
    const report = await copyStudioData(source, target, { runs });
    let queued: number | null = null;
    if (isPostgresUrl(to)) {
      try {
        queued = await queueRunningRuns(target);
      } catch (error) {
        process.stderr.write(
          `db:copy: everything was copied, but the runs copied while running could not be queued (${error instanceof Error ? error.message : String(error)}). ` +
            `They stay "running" with no worker to drive them: cancel them in the studio on the target.\n`,
        );
        process.stdout.write(`Copied:\n${describeReport(report, runs, 0)}\n`);
        return 1;
      }
    }
    process.stdout.write(`Copied:\n${describeReport(report, runs, queued)}\n`);
    process.stdout.write(
      `Done. Start the studio on the target (DATABASE_URL=${toShown}) with the same secret key as before: STUDIO_SECRET_KEY, ` +
        `or the key file secret.key copied into its data folder (mode 0600). The secrets were copied encrypted with it, ` +
        `and the studio refuses to start with another key. Sign-ins were not copied: sign in again.\n`,
    );
    return 0;
  } catch (error) {
    if (TargetNotEmptyError.isInstance(error)) {
      process.stderr.write(`db:copy: ${error.message}\n`);
      return 1;
    }
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(
      `db:copy: the copy from ${fromShown} to ${toShown} failed; no rows were copied (the copy is one transaction):\n${message}\n` +
        `If the source comes from an older studio, start this version of the studio on it once (it migrates it), then copy again.\n`,
    );
    return 1;
  } finally {
    await Promise.all([source?.$disconnect(), target?.$disconnect()]);
  }
}

void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
