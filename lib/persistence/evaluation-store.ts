import type { EvaluationDetail, EvaluationResult, EvaluationStatus, EvaluationSummary, ResultStatus } from "@/lib/contracts/evaluation";
import { ScorerSchema, VerdictSchema, type Scorer, type Verdict } from "@/lib/contracts/evaluation-scorer";
import type { RunStatus } from "@/lib/contracts/run-status";
import { averagesOf, progressOf } from "@/lib/evaluations/evaluation-plan";
import { z } from "zod";
import { BUSY_TRANSACTION, getDatabase, type StudioDatabase } from "./database";
import { NotFoundError } from "./errors";
import { newId } from "./ids";

/**
 * Evaluations and their per-row results. A row is taken (pending → running)
 * with its run's id in one transaction, before the run exists; the run is then
 * created with that id, so however often a restart or a second process tries,
 * it exists once. Every later change of a row is conditional on where it
 * stands, so of two processes acting on it one wins and the other does nothing.
 */

export interface NewEvaluation {
  workflowId: string;
  versionId: string;
  version: number;
  draft: boolean;
  datasetId: string;
  datasetName: string;
  scorers: readonly Scorer[];
  concurrency: number;
  rows: readonly { position: number; inputs: Record<string, unknown>; expected?: unknown }[];
  startedBy: { personId: string; label: string } | null;
}

/** Rows written per statement: well under SQLite's limit of bound values. */
const ROWS_PER_INSERT = 1_000;

/** Stores an evaluation with every row pending, in one transaction. */
export async function createEvaluation(evaluation: NewEvaluation, database: StudioDatabase = getDatabase()): Promise<string> {
  const id = newId();
  await database.$transaction(async (transaction) => {
    await transaction.evaluationRun.create({
      data: {
        id,
        workflowId: evaluation.workflowId,
        versionId: evaluation.versionId,
        version: evaluation.version,
        draft: evaluation.draft,
        datasetId: evaluation.datasetId,
        datasetName: evaluation.datasetName,
        scorers: JSON.stringify(evaluation.scorers),
        concurrency: evaluation.concurrency,
        status: "running",
        rowCount: evaluation.rows.length,
        startedById: evaluation.startedBy?.personId ?? null,
        startedByLabel: evaluation.startedBy?.label ?? null,
      },
    });
    for (let start = 0; start < evaluation.rows.length; start += ROWS_PER_INSERT) {
      await transaction.evaluationResult.createMany({
        data: evaluation.rows.slice(start, start + ROWS_PER_INSERT).map((row) => ({
          id: newId(),
          evaluationId: id,
          position: row.position,
          inputs: JSON.stringify(row.inputs),
          expected: row.expected === undefined ? null : JSON.stringify(row.expected),
          status: "pending",
        })),
      });
    }
  }, BUSY_TRANSACTION);
  return id;
}

/** What the runner needs of an evaluation to act on it. */
export interface EvaluationWork {
  id: string;
  workflowId: string;
  version: number;
  status: EvaluationStatus;
  concurrency: number;
  scorers: Scorer[];
  startedBy: { personId: string; label: string } | null;
}

const ScorersSchema = z.array(ScorerSchema);
const VerdictsSchema = z.array(VerdictSchema);

function readScorers(text: string): Scorer[] {
  const parsed = ScorersSchema.safeParse(JSON.parse(text));
  // Written by this contract: a version that reads them otherwise scores nothing rather than failing every page.
  return parsed.success ? parsed.data : [];
}

function readVerdicts(text: string | null): Verdict[] {
  if (text === null) return [];
  const parsed = VerdictsSchema.safeParse(JSON.parse(text));
  return parsed.success ? parsed.data : [];
}

const readJson = (text: string | null): unknown => (text === null ? undefined : (JSON.parse(text) as unknown));

/** The evaluations still running (whose rows some process must start or score). */
export async function runningEvaluations(database: StudioDatabase = getDatabase()): Promise<EvaluationWork[]> {
  const rows = await database.evaluationRun.findMany({ where: { status: "running" }, orderBy: { createdAt: "asc" } });
  return rows.map(workOf);
}

export async function evaluationWork(id: string, database: StudioDatabase = getDatabase()): Promise<EvaluationWork | null> {
  const row = await database.evaluationRun.findUnique({ where: { id } });
  return row ? workOf(row) : null;
}

function workOf(row: { id: string; workflowId: string; version: number; status: string; concurrency: number; scorers: string; startedById: string | null; startedByLabel: string | null }): EvaluationWork {
  return {
    id: row.id,
    workflowId: row.workflowId,
    version: row.version,
    status: row.status as EvaluationStatus,
    concurrency: row.concurrency,
    scorers: readScorers(row.scorers),
    startedBy: row.startedById ? { personId: row.startedById, label: row.startedByLabel ?? row.startedById } : null,
  };
}

/** A row whose run was started (or is about to be): its id and its run's. */
export interface TakenRow {
  id: string;
  position: number;
  runId: string;
  inputs: Record<string, unknown>;
  expected: unknown;
}

const takenOf = (row: { id: string; position: number; runId: string | null; inputs: string; expected: string | null }): TakenRow => ({
  id: row.id,
  position: row.position,
  runId: row.runId!,
  inputs: JSON.parse(row.inputs) as Record<string, unknown>,
  expected: readJson(row.expected),
});

/**
 * Takes the next pending rows, in order, as many as the concurrency leaves room for: each gets its run's id and
 * `running`, in one transaction. The evaluation's row is updated first, so on PostgreSQL two processes' passes over
 * one evaluation take turns (the row lock) and never start more rows together than it allows; SQLite has one writer.
 */
export async function takeRows(evaluationId: string, database: StudioDatabase = getDatabase()): Promise<TakenRow[]> {
  // Beside a burst of run starts (every row is one), the transaction waits its turn rather than failing.
  return database.$transaction(async (transaction) => {
    const { count } = await transaction.evaluationRun.updateMany({ where: { id: evaluationId, status: "running" }, data: { passes: { increment: 1 } } });
    if (count === 0) return [];
    const evaluation = await transaction.evaluationRun.findUniqueOrThrow({ where: { id: evaluationId }, select: { concurrency: true } });
    const running = await transaction.evaluationResult.count({ where: { evaluationId, status: "running" } });
    const free = Math.max(0, evaluation.concurrency - running);
    if (free === 0) return [];
    const next = await transaction.evaluationResult.findMany({ where: { evaluationId, status: "pending" }, orderBy: { position: "asc" }, take: free });
    const taken: TakenRow[] = [];
    const now = new Date();
    for (const row of next) {
      const runId = newId();
      const { count: updated } = await transaction.evaluationResult.updateMany({ where: { id: row.id, status: "pending" }, data: { status: "running", runId, startedAt: now } });
      if (updated === 1) taken.push(takenOf({ ...row, runId }));
    }
    return taken;
  }, BUSY_TRANSACTION);
}

/** The rows of an evaluation whose runs were started and have not been scored. */
export async function runningRows(evaluationId: string, database: StudioDatabase = getDatabase()): Promise<TakenRow[]> {
  const rows = await database.evaluationResult.findMany({ where: { evaluationId, status: "running" }, orderBy: { position: "asc" } });
  return rows.map(takenOf);
}

/** What a row's run left: its end, output and figures, read when it ended. */
export interface RowOutcome {
  runStatus: RunStatus;
  output: unknown;
  error: string | null;
  verdicts: readonly Verdict[];
  durationMs: number | null;
  inputTokens: number | null;
  outputTokens: number | null;
  costMicros: number | null;
  failedSteps: number;
}

/** Records a running row's outcome; false when the row no longer runs (another process scored it, or it was cancelled). */
export async function recordOutcome(rowId: string, outcome: RowOutcome, database: StudioDatabase = getDatabase()): Promise<boolean> {
  const { count } = await database.evaluationResult.updateMany({
    where: { id: rowId, status: "running" },
    data: {
      status: "scored",
      runStatus: outcome.runStatus,
      output: outcome.output === undefined || outcome.output === null ? null : JSON.stringify(outcome.output),
      error: outcome.error,
      verdicts: JSON.stringify(outcome.verdicts),
      durationMs: outcome.durationMs,
      inputTokens: outcome.inputTokens,
      outputTokens: outcome.outputTokens,
      costMicros: outcome.costMicros,
      failedSteps: outcome.failedSteps,
      finishedAt: new Date(),
    },
  });
  return count === 1;
}

/** A running row whose run could not start (the workflow no longer runs with these inputs): ended with the reason, no run. */
export async function recordStartError(rowId: string, error: string, database: StudioDatabase = getDatabase()): Promise<void> {
  await database.evaluationResult.updateMany({ where: { id: rowId, status: "running" }, data: { status: "error", error, runId: null, finishedAt: new Date() } });
}

/** Marks a running evaluation finished once no row waits or runs; false otherwise. */
export async function finishIfDone(evaluationId: string, database: StudioDatabase = getDatabase()): Promise<boolean> {
  const open = await database.evaluationResult.count({ where: { evaluationId, status: { in: ["pending", "running"] } } });
  if (open > 0) return false;
  const { count } = await database.evaluationRun.updateMany({ where: { id: evaluationId, status: "running" }, data: { status: "finished", finishedAt: new Date() } });
  return count === 1;
}

/**
 * Cancels a running evaluation: no more rows start, the pending and running ones end as cancelled (their verdicts
 * unrecorded). Returns the runs to cancel; null when it was not running (finished or cancelled already).
 */
export async function cancelEvaluation(workflowId: string, evaluationId: string, database: StudioDatabase = getDatabase()): Promise<string[] | null> {
  return database.$transaction(async (transaction) => {
    const evaluation = await transaction.evaluationRun.findFirst({ where: { id: evaluationId, workflowId }, select: { id: true } });
    if (!evaluation) throw new NotFoundError("evaluation", evaluationId);
    const { count } = await transaction.evaluationRun.updateMany({ where: { id: evaluationId, status: "running" }, data: { status: "cancelled", finishedAt: new Date(), passes: { increment: 1 } } });
    if (count === 0) return null;
    const running = await transaction.evaluationResult.findMany({ where: { evaluationId, status: "running" }, select: { runId: true } });
    await transaction.evaluationResult.updateMany({ where: { evaluationId, status: { in: ["pending", "running"] } }, data: { status: "cancelled", finishedAt: new Date() } });
    return running.flatMap((row) => (row.runId ? [row.runId] : []));
  }, BUSY_TRANSACTION);
}

type StoredEvaluation = {
  id: string;
  workflowId: string;
  version: number;
  draft: boolean;
  datasetId: string;
  datasetName: string;
  scorers: string;
  concurrency: number;
  status: string;
  rowCount: number;
  createdAt: Date;
  finishedAt: Date | null;
  startedByLabel: string | null;
};

function summaryOf(row: StoredEvaluation, results: readonly { status: string; verdicts: string | null }[]): EvaluationSummary {
  const scorers = readScorers(row.scorers);
  return {
    id: row.id,
    workflowId: row.workflowId,
    version: row.version,
    draft: row.draft,
    datasetId: row.datasetId,
    datasetName: row.datasetName,
    scorers,
    concurrency: row.concurrency,
    status: row.status as EvaluationStatus,
    rowCount: row.rowCount,
    progress: progressOf(results.map((result) => result.status as ResultStatus)),
    averages: averagesOf(scorers, results.map((result) => readVerdicts(result.verdicts))),
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
    createdBy: row.startedByLabel,
  };
}

/** A workflow's evaluations, newest first, with their progress and averages. */
export async function listEvaluations(workflowId: string, database: StudioDatabase = getDatabase()): Promise<EvaluationSummary[]> {
  const rows = await database.evaluationRun.findMany({
    where: { workflowId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    include: { results: { select: { status: true, verdicts: true } } },
  });
  return rows.map((row) => summaryOf(row, row.results));
}

/** One evaluation's summary; NotFoundError when the workflow has none of that id. */
export async function getEvaluationSummary(workflowId: string, id: string, database: StudioDatabase = getDatabase()): Promise<EvaluationSummary> {
  const row = await database.evaluationRun.findUnique({ where: { id }, include: { results: { select: { status: true, verdicts: true } } } });
  if (!row || row.workflowId !== workflowId) throw new NotFoundError("evaluation", id);
  return summaryOf(row, row.results);
}

/** An evaluation with every row's result in order; NotFoundError when the workflow has none of that id. */
export async function getEvaluation(workflowId: string, id: string, database: StudioDatabase = getDatabase()): Promise<EvaluationDetail> {
  const row = await database.evaluationRun.findUnique({ where: { id }, include: { results: { orderBy: { position: "asc" } } } });
  if (!row || row.workflowId !== workflowId) throw new NotFoundError("evaluation", id);
  const results = row.results.map(
    (result): EvaluationResult => ({
      position: result.position,
      status: result.status as ResultStatus,
      inputs: JSON.parse(result.inputs) as Record<string, unknown>,
      ...(result.expected === null ? {} : { expected: JSON.parse(result.expected) as unknown }),
      runId: result.runId,
      runStatus: result.runStatus as RunStatus | null,
      output: result.output === null ? null : (JSON.parse(result.output) as unknown),
      error: result.error,
      verdicts: readVerdicts(result.verdicts),
      durationMs: result.durationMs,
      inputTokens: result.inputTokens,
      outputTokens: result.outputTokens,
      costMicros: result.costMicros,
      failedSteps: result.failedSteps,
    }),
  );
  const ended = results.filter((result) => result.status === "scored");
  const priced = ended.filter((result) => result.costMicros !== null);
  return {
    ...summaryOf(row, row.results),
    results,
    totals: {
      durationMs: ended.reduce((sum, result) => sum + (result.durationMs ?? 0), 0),
      inputTokens: ended.reduce((sum, result) => sum + (result.inputTokens ?? 0), 0),
      outputTokens: ended.reduce((sum, result) => sum + (result.outputTokens ?? 0), 0),
      costMicros: priced.length === 0 ? null : priced.reduce((sum, result) => sum + result.costMicros!, 0),
      failedSteps: ended.reduce((sum, result) => sum + (result.failedSteps ?? 0), 0),
    },
  };
}
