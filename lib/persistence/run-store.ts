import { randomUUID } from "node:crypto";
import { grantInForce } from "@/lib/contracts/grants";
import { triggerFromColumns } from "@/lib/contracts/run-trigger";
import { RUN_ENDING_EVENT_TYPES } from "@/lib/contracts/run-event";
import type { WriteGrant } from "@/lib/tools";
import { runDefinitionOf } from "@/lib/workflow/run-definition";
import { WorkflowDefinitionSchema } from "@/lib/workflow/definition";
import type {
  AnnouncedApprovals,
  ApprovalStanding,
  ApprovalDecisionInput,
  ApprovalRecord,
  ApprovalRequest,
  ApprovalStatus,
  GrantOrigin,
  LoadedRun,
  RunCommit,
  RunStatus,
  RunStore,
  StepOutput,
} from "@/lib/workflow/run-types";
import type { NodeStatus } from "@/lib/workflow/scheduler";
import { BUSY_TRANSACTION, postgresStatements, sqliteWriter } from "./database";
import { preparedRows } from "./hot-path";
import { announcedApprovals, approvalStanding } from "./approval-standing";
import { PostgresCommitGroup } from "./postgres-commit-group";
import { postgresPlaceholders } from "./postgres-statements";
import { readDate } from "./prepared";
import { parsedDefinition } from "./run-versions";
import { commitWrites, POSTGRES_COMMITS, SQLITE_COMMITS, type Announcement } from "./run-commit-writes";
import { usageOfEvents } from "./run-usage-writes";
import type { Prisma, PrismaClient } from "./generated/sqlite/client";
import { carriedAsOf, parseJson, runSourceFromColumns, stepErrorKind, storedLoop, storedPermissions, toApprovalRecord, toRunRecord, toStepRecord } from "./run-records";

/**
 * The engine's {@link RunStore} on the studio database. On a client from
 * `openDatabase`, the engine's per-step path (commits) and per-run reads
 * (loadRun, listGrants; claimRun on PostgreSQL) use prepared statements: on
 * SQLite cached on Prisma's own connection, on PostgreSQL named statements on
 * a small pool beside Prisma's (postgres-statements.ts). Through Prisma each
 * query is compiled and interpreted anew, which cost several milliseconds a
 * step. Commits are also grouped: on SQLite by the client's run writer (a
 * thread of its own, sqlite-writer.ts), on PostgreSQL those in flight
 * (PostgresCommitGroup); from any run, they share one transaction, and one
 * failing commit fails alone.
 */
export interface PrismaRunStoreOptions {
  /**
   * Several processes share the database (PostgreSQL with workers): every
   * commit that stores events also says so with `pg_notify` on
   * RUN_EVENTS_CHANNEL, in the same transaction (with the events themselves
   * when they fit, else their numbers only, to be read from their table), and
   * every decision runs `afterDecision` in the
   * transaction that records it (the job that resumes the run is sent there).
   */
  shared?: {
    afterDecision: (transaction: Prisma.TransactionClient, approval: { id: string; runId: string }) => Promise<void>;
  };
}

/**
 * The channel that tells every process a run's events were stored: payload `<runId> <first seq> <last seq> <end|more>`,
 * the last word saying whether one of them ends the run (a process that hears only runs' ends reads no others), then,
 * when the whole payload fits in NOTIFICATION_CARRIES_BYTES, a space and the events as JSON (as readEvents returns them).
 */
export const RUN_EVENTS_CHANNEL = "studio_run_events";
/** The channel that tells every process an approval was decided, or changed while it waits (a vote, an escalation, a notification, a view): payload its id. */
export const DECISIONS_CHANNEL = "studio_decisions";
/** The channel that tells every process someone asked to cancel a run: payload the run's id. */
export const CANCELS_CHANNEL = "studio_cancels";

export class PrismaRunStore implements RunStore {
  private postgresGroup: PostgresCommitGroup | null = null;

  constructor(
    private readonly db: PrismaClient,
    private readonly options: PrismaRunStoreOptions = {},
  ) {}

  async loadRun(runId: string): Promise<LoadedRun | null> {
    const statements = postgresStatements(this.db);
    if (statements) {
      // One round trip: the run, its steps and its workflow's grants (each a statement's round trip before).
      const [row] = (await statements.run<RunJoinRow & { steps: StepSqlRow[]; grants: GrantRow[] }>(postgresPlaceholders(LOAD_RUN_WITH_STEPS_AND_GRANTS), [runId])).rows;
      return row ? { ...loadedRunFromRows(row, row.steps), grants: grantsInForce(row.grants) } : null;
    }
    const runs = await preparedRows<RunJoinRow>(this.db, LOAD_RUN, [runId]);
    if (!runs) return loadRunWithPrisma(this.db, runId);
    const row = runs[0];
    if (!row) return null;
    const steps = (await preparedRows<StepSqlRow>(this.db, LOAD_STEPS, [runId])) ?? [];
    return loadedRunFromRows(row, steps);
  }

  async unfinishedRunIds(): Promise<string[]> {
    const rows = await this.db.run.findMany({
      where: { status: { in: ["running", "awaiting_input"] } },
      select: { id: true },
      orderBy: { createdAt: "asc" },
    });
    return rows.map((row) => row.id);
  }

  async commit(runId: string, commit: RunCommit): Promise<void> {
    const writer = sqliteWriter(this.db);
    if (writer) {
      const writes = commitWrites(runId, commit, SQLITE_COMMITS);
      return writes.length === 0 ? undefined : writer.commit(writes);
    }
    const statements = postgresStatements(this.db);
    if (!statements) return this.commitWithPrisma(runId, commit);
    const writes = commitWrites(runId, commit, POSTGRES_COMMITS, this.options.shared && commit.events.length > 0 ? this.eventsStored(runId, commit) : undefined);
    if (writes.length === 0) return;
    this.postgresGroup ??= new PostgresCommitGroup(statements);
    return this.postgresGroup.commit(runId, writes);
  }

  async claimRun(runId: string, driver: string): Promise<void> {
    const statements = postgresStatements(this.db);
    if (statements) await statements.run(postgresPlaceholders(CLAIM_RUN), [driver, runId]);
    else await this.db.run.updateMany({ where: { id: runId }, data: { driver } });
  }

  /**
   * The pg_notify that tells every process a commit's events are stored, sent (or undone) with them: their run and
   * numbers, and the events themselves when they fit (most commits), so a process that streams or counts them need
   * not read them back. PostgreSQL refuses a payload of 8,000 bytes or more.
   */
  private eventsStored(runId: string, commit: RunCommit): Announcement {
    const seqs = commit.events.map((event) => event.seq);
    const ending = commit.events.some((event) => RUN_ENDING_EVENT_TYPES.has(event.type));
    const head = `${runId} ${seqs[0]} ${Math.max(...seqs)} ${ending ? "end" : "more"}`;
    // As readEvents gives them back (runId, seq, type, nodeId, payload, createdAt), in order.
    const events = JSON.stringify(
      [...commit.events].sort((a, b) => a.seq - b.seq).map(({ seq, type, nodeId, payload, createdAt }) => ({ runId, seq, type, nodeId, payload, createdAt })),
    );
    const carried = `${head} ${events}`;
    return { channel: RUN_EVENTS_CHANNEL, payload: Buffer.byteLength(carried) <= NOTIFICATION_CARRIES_BYTES ? carried : head };
  }

  private async commitWithPrisma(runId: string, commit: RunCommit): Promise<void> {
    const operations: Prisma.PrismaPromise<unknown>[] = [];
    // Fencing: not this drive's run any more (another claimed it) -> "record not found", and nothing of the commit is written.
    if (commit.driver) operations.push(this.db.run.update({ where: { id: runId, driver: commit.driver }, data: { driver: commit.driver } }));
    const lastSeq = commit.events.reduce((highest, event) => Math.max(highest, event.seq), 0);
    const runData: Prisma.RunUpdateInput = {};
    if (commit.run?.status !== undefined) runData.status = commit.run.status;
    if (commit.run?.output !== undefined) runData.output = JSON.stringify(commit.run.output);
    if (commit.run?.error !== undefined) runData.error = commit.run.error;
    if (commit.run?.errorKind !== undefined) runData.errorKind = commit.run.errorKind;
    if (commit.run?.finishedAt !== undefined) runData.finishedAt = commit.run.finishedAt ? new Date(commit.run.finishedAt) : null;
    if (lastSeq > 0) runData.lastSeq = lastSeq;
    if (Object.keys(runData).length > 0) operations.push(this.db.run.update({ where: { id: runId }, data: runData }));

    for (const step of commit.steps) {
      const data: Prisma.StepUpdateInput = { status: step.status };
      if (step.input !== undefined) data.input = JSON.stringify(step.input);
      if (step.output !== undefined) data.output = step.output === null ? null : JSON.stringify(step.output);
      if (step.error !== undefined) data.error = step.error;
      if (step.errorKind !== undefined) data.errorKind = step.errorKind;
      if (step.attempt !== undefined) data.attempt = step.attempt;
      if (step.retryAt !== undefined) data.retryAt = step.retryAt ? new Date(step.retryAt) : null;
      if (step.startedAt !== undefined) data.startedAt = new Date(step.startedAt);
      if (step.finishedAt !== undefined) data.finishedAt = step.finishedAt ? new Date(step.finishedAt) : null;
      operations.push(
        this.db.step.upsert({
          where: { runId_nodeId: { runId, nodeId: step.nodeId } },
          update: data,
          create: { ...(data as Prisma.StepCreateWithoutRunInput), id: randomUUID(), nodeId: step.nodeId, run: { connect: { id: runId } } },
        }),
      );
    }
    if (commit.events.length > 0) {
      operations.push(
        this.db.runEvent.createMany({
          data: commit.events.map((event) => ({
            runId,
            seq: event.seq,
            type: event.type,
            nodeId: event.nodeId,
            payload: JSON.stringify(event.payload),
            createdAt: new Date(event.createdAt),
          })),
        }),
      );
    }
    for (const usage of usageOfEvents(commit.events)) {
      const { provider, model, ...counts } = usage;
      const added = { inputTokens: { increment: counts.inputTokens }, cachedInputTokens: { increment: counts.cachedInputTokens }, outputTokens: { increment: counts.outputTokens }, calls: { increment: counts.calls } };
      operations.push(
        this.db.runModelUsage.upsert({ where: { runId_provider_model: { runId, provider, model } }, update: added, create: { id: randomUUID(), runId, provider, model, ...counts } }),
      );
    }
    if (this.options.shared && commit.events.length > 0) {
      const notify = this.eventsStored(runId, commit);
      operations.push(this.db.$executeRawUnsafe(postgresPlaceholders(NOTIFY), notify.channel, notify.payload));
    }
    if (operations.length > 0) await this.db.$transaction(operations);
  }

  async openApproval(request: ApprovalRequest & { digest: string }): Promise<{ approval: ApprovalRecord; created: boolean }> {
    const existing = await this.db.approval.findUnique({ where: { runId_key: { runId: request.runId, key: request.key } } });
    if (existing) return { approval: toApprovalRecord(existing), created: false };
    const row = await this.db.approval.create({
      data: {
        id: randomUUID(),
        runId: request.runId,
        nodeId: request.nodeId,
        key: request.key,
        kind: request.kind,
        tool: request.tool,
        operation: request.operation,
        arguments: JSON.stringify(request.arguments),
        preview: request.preview,
        effect: request.effect === undefined ? null : JSON.stringify(request.effect),
        digest: request.digest,
      },
    });
    return { approval: toApprovalRecord(row), created: true };
  }

  async getApproval(id: string): Promise<ApprovalRecord | null> {
    const row = await this.db.approval.findUnique({ where: { id } });
    return row ? toApprovalRecord(row) : null;
  }

  async decideApproval(id: string, input: ApprovalDecisionInput): Promise<{ approval: ApprovalRecord; changed: boolean } | null> {
    const status: ApprovalStatus = input.decision === "deny" ? "denied" : input.decision === "answer" ? "answered" : "approved";
    const editedArguments = input.editedArguments ? JSON.stringify(input.editedArguments) : null;
    const data = { status, decision: input.decision, editedArguments, feedback: input.feedback, decidedBy: input.decidedBy, decidedById: input.decidedById ?? null, decidedAt: new Date() };
    const shared = this.options.shared;
    // Conditional on `pending`: of two racing decisions exactly one changes the row.
    const count = shared
      ? await this.db.$transaction(async (transaction) => {
          const { count } = await transaction.approval.updateMany({ where: { id, status: "pending" }, data });
          if (count === 1) {
            const { runId } = await transaction.approval.findUniqueOrThrow({ where: { id }, select: { runId: true } });
            await shared.afterDecision(transaction, { id, runId });
            await transaction.$executeRawUnsafe("SELECT pg_notify($1, $2)", DECISIONS_CHANNEL, id);
          }
          return count;
        }, BUSY_TRANSACTION)
      : (await this.db.approval.updateMany({ where: { id, status: "pending" }, data })).count;
    const row = await this.db.approval.findUnique({ where: { id } });
    return row ? { approval: toApprovalRecord(row), changed: count === 1 } : null;
  }

  async supersedeApproval(id: string): Promise<void> {
    await this.db.approval.updateMany({
      where: { id, status: "pending" },
      data: { status: "cancelled", feedback: "Withdrawn: what the step would do changed, so it asks again.", decidedAt: new Date() },
    });
  }

  async cancelApprovals(runId: string): Promise<string[]> {
    const pending = await this.db.approval.findMany({ where: { runId, status: "pending" }, select: { id: true } });
    await this.db.approval.updateMany({
      where: { runId, status: "pending" },
      data: { status: "cancelled", decidedAt: new Date(), feedback: "The run was cancelled." },
    });
    return pending.map((row) => row.id);
  }

  async nodesAwaitingDecision(runId: string): Promise<Set<string>> {
    const rows = await this.db.approval.findMany({ where: { runId, status: "pending" }, select: { nodeId: true } });
    return new Set(rows.flatMap((row) => (row.nodeId ? [row.nodeId] : [])));
  }

  announcedApprovals(runId: string): Promise<AnnouncedApprovals> {
    return announcedApprovals(this.db, runId);
  }

  approvalStanding(approvalId: string): Promise<ApprovalStanding | null> {
    return approvalStanding(this.db, approvalId);
  }

  /** The workflow's grants still in force (one that ran out, or was revoked, allows nothing). */
  async listGrants(workflowId: string): Promise<WriteGrant[]> {
    const rows = (await preparedRows<GrantRow>(this.db, LIST_GRANTS, [workflowId])) ?? (await this.db.grant.findMany({ where: { workflowId }, orderBy: { createdAt: "asc" } }));
    return grantsInForce(rows);
  }

  async loadAgentCheckpoint(runId: string, nodeId: string): Promise<{ turn: number; messages: string } | null> {
    const row = await this.db.agentCheckpoint.findFirst({ where: { runId, nodeId }, orderBy: { turn: "desc" }, select: { turn: true, messages: true } });
    return row ?? null;
  }

  async saveAgentCheckpoint(runId: string, nodeId: string, turn: number, messages: string): Promise<void> {
    await this.db.agentCheckpoint.upsert({
      where: { runId_nodeId_turn: { runId, nodeId, turn } },
      update: { messages },
      create: { id: randomUUID(), runId, nodeId, turn, messages },
    });
  }

  async addGrant(workflowId: string, grant: WriteGrant, origin: GrantOrigin): Promise<void> {
    // The approval answered "always" just now: it names the person who gave the grant.
    const decided = await this.db.approval.findFirst({
      where: { runId: origin.runId, nodeId: origin.nodeId, decision: "always" },
      orderBy: { decidedAt: "desc" },
      select: { decidedBy: true, decidedById: true },
    });
    const given = { createdBy: decided?.decidedBy ?? null, createdById: decided?.decidedById ?? null, runId: origin.runId, expiresAt: origin.expiresAt };
    await this.db.grant.upsert({
      where: { workflowId_root_pattern: { workflowId, root: grant.root, pattern: grant.pattern } },
      update: { ...given, createdAt: new Date() },
      create: { id: randomUUID(), workflowId, root: grant.root, pattern: grant.pattern, ...given },
    });
  }
}

/*
 * The prepared-statement paths (the statements a commit makes are in
 * run-commit-writes.ts). They read what Prisma would, in the formats each
 * database's Prisma adapter uses.
 */

const LIST_GRANTS = `SELECT "root", "pattern", "expiresAt" FROM "Grant" WHERE "workflowId" = ? ORDER BY "createdAt" ASC`;
const LOAD_RUN = `SELECT "Run".*, "WorkflowVersion"."version" AS "versionNumber", "WorkflowVersion"."definition" AS "definition"
  FROM "Run" JOIN "WorkflowVersion" ON "WorkflowVersion"."id" = "Run"."versionId" WHERE "Run"."id" = ?`;
const LOAD_STEPS = `SELECT * FROM "Step" WHERE "runId" = ? ORDER BY "nodeId"`;
/**
 * PostgreSQL: LOAD_RUN, LOAD_STEPS and LIST_GRANTS in one statement, the steps and grants as JSON arrays (DateTimes
 * as text, as the statement pool reads them, see postgres-statements.ts). Its own statement, after the claim: a
 * claim that waited for another drive's commit is followed by a read that sees that commit.
 */
const LOAD_RUN_WITH_STEPS_AND_GRANTS = `SELECT "Run".*, "WorkflowVersion"."version" AS "versionNumber", "WorkflowVersion"."definition" AS "definition",
  (SELECT coalesce(json_agg(json_build_object('nodeId', s."nodeId", 'status', s."status", 'input', s."input", 'output', s."output", 'error', s."error",
     'errorKind', s."errorKind", 'attempt', s."attempt", 'retryAt', s."retryAt"::text, 'startedAt', s."startedAt"::text, 'finishedAt', s."finishedAt"::text,
     'carriedFromRunId', s."carriedFromRunId", 'carriedAs', s."carriedAs") ORDER BY s."nodeId"), '[]'::json) FROM "Step" s WHERE s."runId" = "Run"."id") AS "steps",
  (SELECT coalesce(json_agg(json_build_object('root', g."root", 'pattern', g."pattern", 'expiresAt', g."expiresAt"::text) ORDER BY g."createdAt"), '[]'::json)
     FROM "Grant" g WHERE g."workflowId" = "Run"."workflowId") AS "grants"
  FROM "Run" JOIN "WorkflowVersion" ON "WorkflowVersion"."id" = "Run"."versionId" WHERE "Run"."id" = ?`;
const CLAIM_RUN = `UPDATE "Run" SET "driver" = ? WHERE "id" = ?`;
/** The largest events notification that carries its events (PostgreSQL's limit is 8,000 bytes, a margin kept). */
export const NOTIFICATION_CARRIES_BYTES = 7_500;

interface GrantRow {
  root: string;
  pattern: string;
  expiresAt: unknown;
}

/** The grants still in force (one that ran out, or was revoked, allows nothing). */
function grantsInForce(rows: GrantRow[]): WriteGrant[] {
  return rows.filter((row) => grantInForce({ expiresAt: readDate(row.expiresAt) })).map((row) => ({ root: row.root, pattern: row.pattern }));
}
const NOTIFY = `SELECT pg_notify(?, ?)`;

interface RunJoinRow {
  id: string;
  workflowId: string;
  versionId: string;
  status: string;
  inputs: string;
  output: string | null;
  error: string | null;
  lastSeq: number;
  createdAt: unknown;
  startedAt: unknown;
  finishedAt: unknown;
  cancelRequestedAt: unknown;
  cancelRequestedBy: string | null;
  trigger: string;
  triggerNodeId: string | null;
  triggerDetail: string | null;
  sourceRunId: string | null;
  sourceKind: string | null;
  permissions: string | null;
  loop: string | null;
  versionNumber: number;
  definition: string;
}

interface StepSqlRow {
  nodeId: string;
  status: string;
  input: string | null;
  output: string | null;
  error: string | null;
  errorKind: string | null;
  attempt: number;
  retryAt: unknown;
  startedAt: unknown;
  finishedAt: unknown;
  carriedFromRunId: string | null;
  carriedAs: string | null;
}

/** loadRun through Prisma: for a client without a prepared-statement path, and what that path must equal. */
export async function loadRunWithPrisma(db: PrismaClient, runId: string): Promise<LoadedRun | null> {
  const row = await db.run.findUnique({ where: { id: runId }, include: { version: true, steps: true } });
  if (!row) return null;
  return {
    run: toRunRecord(row),
    // A called run runs under its caller's stricter permissions, if they are: the engine reads them off the definition.
    definition: runDefinitionOf(WorkflowDefinitionSchema.parse(JSON.parse(row.version.definition)), { permissions: storedPermissions(row.permissions), loop: storedLoop(row.loop) }),
    loop: storedLoop(row.loop),
    steps: row.steps.map(toStepRecord),
    cancelRequest: row.cancelRequestedAt ? { by: row.cancelRequestedBy } : null,
    source: runSourceFromColumns(row.sourceRunId, row.sourceKind),
  };
}

function loadedRunFromRows(row: RunJoinRow, steps: StepSqlRow[]): LoadedRun {
  return {
    run: {
      id: row.id,
      workflowId: row.workflowId,
      versionId: row.versionId,
      version: row.versionNumber,
      status: row.status as RunStatus,
      inputs: parseJson(row.inputs, {}),
      output: parseJson(row.output, null),
      error: row.error,
      lastSeq: row.lastSeq,
      createdAt: readDate(row.createdAt)!,
      startedAt: readDate(row.startedAt)!,
      finishedAt: readDate(row.finishedAt),
      trigger: triggerFromColumns(row.trigger, row.triggerNodeId, row.triggerDetail),
    },
    // A version never changes: its definition is parsed once per process (as for starting runs), not per drive.
    definition: runDefinitionOf(parsedDefinition(row.versionId, row.definition), { permissions: storedPermissions(row.permissions), loop: storedLoop(row.loop) }),
    loop: storedLoop(row.loop),
    cancelRequest: row.cancelRequestedAt ? { by: row.cancelRequestedBy } : null,
    source: runSourceFromColumns(row.sourceRunId, row.sourceKind),
    steps: steps.map((step) => ({
      nodeId: step.nodeId,
      status: step.status as NodeStatus,
      input: parseJson(step.input, null),
      output: parseJson<StepOutput | null>(step.output, null),
      error: step.error,
      errorKind: stepErrorKind(step.errorKind),
      attempt: step.attempt,
      retryAt: readDate(step.retryAt),
      startedAt: readDate(step.startedAt),
      finishedAt: readDate(step.finishedAt),
      carriedFromRunId: step.carriedFromRunId,
      carriedAs: carriedAsOf(step.carriedAs),
    })),
  };
}
