import { randomUUID } from "node:crypto";
import type { WriteGrant } from "@/lib/tools";
import { WorkflowDefinitionSchema } from "@/lib/workflow/definition";
import type {
  ApprovalDecision,
  ApprovalDecisionInput,
  ApprovalKind,
  ApprovalRecord,
  ApprovalRequest,
  ApprovalStatus,
  LoadedRun,
  RunCommit,
  RunEvent,
  RunEventType,
  RunRecord,
  RunStatus,
  RunStore,
  StepOutput,
  StepRecord,
} from "@/lib/workflow/run-types";
import type { NodeStatus } from "@/lib/workflow/scheduler";
import type { Prisma, PrismaClient } from "./generated/client";

type ApprovalRow = Prisma.ApprovalGetPayload<object>;
type RunRow = Prisma.RunGetPayload<object>;
type StepRow = Prisma.StepGetPayload<object>;
type EventRow = Prisma.RunEventGetPayload<object>;

const iso = (date: Date | null): string | null => (date ? date.toISOString() : null);
const parseJson = <T>(text: string | null, fallback: T): T => (text === null ? fallback : (JSON.parse(text) as T));

export function toApprovalRecord(row: ApprovalRow): ApprovalRecord {
  return {
    id: row.id,
    runId: row.runId,
    nodeId: row.nodeId,
    key: row.key,
    kind: row.kind as ApprovalKind,
    tool: row.tool,
    operation: row.operation,
    arguments: parseJson(row.arguments, {}),
    preview: row.preview,
    status: row.status as ApprovalStatus,
    decision: row.decision as ApprovalDecision | null,
    feedback: row.feedback,
    decidedBy: row.decidedBy,
    decidedAt: iso(row.decidedAt),
    createdAt: row.createdAt.toISOString(),
  };
}

export function toRunRecord(row: RunRow & { version: { version: number } }): RunRecord {
  return {
    id: row.id,
    workflowId: row.workflowId,
    versionId: row.versionId,
    version: row.version.version,
    status: row.status as RunStatus,
    inputs: parseJson(row.inputs, {}),
    output: parseJson(row.output, null),
    error: row.error,
    lastSeq: row.lastSeq,
    createdAt: row.createdAt.toISOString(),
    startedAt: row.startedAt.toISOString(),
    finishedAt: iso(row.finishedAt),
  };
}

export function toStepRecord(row: StepRow): StepRecord {
  return {
    nodeId: row.nodeId,
    status: row.status as NodeStatus,
    input: parseJson(row.input, null),
    output: parseJson<StepOutput | null>(row.output, null),
    error: row.error,
    attempt: row.attempt,
    startedAt: iso(row.startedAt),
    finishedAt: iso(row.finishedAt),
  };
}

export function toRunEvent(row: EventRow): RunEvent {
  return {
    runId: row.runId,
    seq: row.seq,
    type: row.type as RunEventType,
    nodeId: row.nodeId,
    payload: parseJson(row.payload, {}),
    createdAt: row.createdAt.toISOString(),
  };
}

/** The engine's {@link RunStore} on the studio database. */
export class PrismaRunStore implements RunStore {
  constructor(private readonly db: PrismaClient) {}

  async loadRun(runId: string): Promise<LoadedRun | null> {
    const row = await this.db.run.findUnique({ where: { id: runId }, include: { version: true, steps: true } });
    if (!row) return null;
    return {
      run: toRunRecord(row),
      definition: WorkflowDefinitionSchema.parse(JSON.parse(row.version.definition)),
      steps: row.steps.map(toStepRecord),
    };
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
    const operations: Prisma.PrismaPromise<unknown>[] = [];
    const lastSeq = commit.events.reduce((highest, event) => Math.max(highest, event.seq), 0);
    const runData: Prisma.RunUpdateInput = {};
    if (commit.run?.status !== undefined) runData.status = commit.run.status;
    if (commit.run?.output !== undefined) runData.output = JSON.stringify(commit.run.output);
    if (commit.run?.error !== undefined) runData.error = commit.run.error;
    if (commit.run?.finishedAt !== undefined) runData.finishedAt = commit.run.finishedAt ? new Date(commit.run.finishedAt) : null;
    if (lastSeq > 0) runData.lastSeq = lastSeq;
    if (Object.keys(runData).length > 0) operations.push(this.db.run.update({ where: { id: runId }, data: runData }));

    for (const step of commit.steps) {
      const data: Prisma.StepUpdateInput = { status: step.status };
      if (step.input !== undefined) data.input = JSON.stringify(step.input);
      if (step.output !== undefined) data.output = step.output === null ? null : JSON.stringify(step.output);
      if (step.error !== undefined) data.error = step.error;
      if (step.attempt !== undefined) data.attempt = step.attempt;
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
    if (operations.length > 0) await this.db.$transaction(operations);
  }

  async openApproval(request: ApprovalRequest): Promise<{ approval: ApprovalRecord; created: boolean }> {
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
    // Conditional on `pending`: of two racing decisions exactly one changes the row.
    const { count } = await this.db.approval.updateMany({
      where: { id, status: "pending" },
      data: { status, decision: input.decision, feedback: input.feedback, decidedBy: input.decidedBy, decidedAt: new Date() },
    });
    const row = await this.db.approval.findUnique({ where: { id } });
    return row ? { approval: toApprovalRecord(row), changed: count === 1 } : null;
  }

  async cancelApprovals(runId: string): Promise<string[]> {
    const pending = await this.db.approval.findMany({ where: { runId, status: "pending" }, select: { id: true } });
    await this.db.approval.updateMany({
      where: { runId, status: "pending" },
      data: { status: "cancelled", decidedAt: new Date(), feedback: "The run was cancelled." },
    });
    return pending.map((row) => row.id);
  }

  async listGrants(workflowId: string): Promise<WriteGrant[]> {
    const rows = await this.db.grant.findMany({ where: { workflowId }, orderBy: { createdAt: "asc" } });
    return rows.map((row) => ({ root: row.root, pattern: row.pattern }));
  }

  async addGrant(workflowId: string, grant: WriteGrant, createdBy: string | null): Promise<void> {
    await this.db.grant.upsert({
      where: { workflowId_root_pattern: { workflowId, root: grant.root, pattern: grant.pattern } },
      update: {},
      create: { id: randomUUID(), workflowId, root: grant.root, pattern: grant.pattern, createdBy },
    });
  }
}
