import { StepErrorKindSchema, type StepErrorKind } from "@/lib/contracts/execution-settings";
import { triggerFromColumns } from "@/lib/contracts/run-trigger";
import { CarriedAsSchema, RunLoopSchema, RunPermissionsSchema, RunSourceKindSchema, type CarriedAs, type RunLoop, type RunPermissions, type RunSourceKind } from "@/lib/contracts/run";
import { parseApprovalPreview } from "@/lib/tools";
import type { ApprovalDecision, ApprovalKind, ApprovalRecord, ApprovalStatus, RunEvent, RunEventType, RunRecord, RunStatus, StepOutput, StepRecord } from "@/lib/workflow/run-types";
import type { NodeStatus } from "@/lib/workflow/scheduler";
import type { Prisma } from "./generated/sqlite/client";

/**
 * Stored rows as the engine and the API read them: a run, its steps, events
 * and approvals, and the JSON columns a run carries (its permissions, its
 * For each item). One reading for every query that returns them.
 */

type ApprovalRow = Prisma.ApprovalGetPayload<object>;
type RunRow = Prisma.RunGetPayload<object>;
type StepRow = Prisma.StepGetPayload<object>;
type EventRow = Prisma.RunEventGetPayload<object>;

const iso = (date: Date | null): string | null => (date ? date.toISOString() : null);
export const parseJson = <T>(text: string | null, fallback: T): T => (text === null ? fallback : (JSON.parse(text) as T));

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
    effect: parseApprovalPreview(parseJson<unknown>(row.effect, null), row.preview),
    digest: row.digest,
    status: row.status as ApprovalStatus,
    decision: row.decision as ApprovalDecision | null,
    editedArguments: parseJson(row.editedArguments, null),
    feedback: row.feedback,
    decidedBy: row.decidedBy === null ? null : { personId: row.decidedById, name: row.decidedBy },
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
    trigger: triggerFromColumns(row.trigger, row.triggerNodeId, row.triggerDetail),
  };
}

/** A stored `carriedAs`, read back; one this version does not know reads as none. */
export function carriedAsOf(value: string | null): CarriedAs | null {
  const parsed = CarriedAsSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

export function toStepRecord(row: StepRow): StepRecord {
  return {
    nodeId: row.nodeId,
    status: row.status as NodeStatus,
    input: parseJson(row.input, null),
    output: parseJson<StepOutput | null>(row.output, null),
    error: row.error,
    errorKind: stepErrorKind(row.errorKind),
    attempt: row.attempt,
    retryAt: iso(row.retryAt),
    startedAt: iso(row.startedAt),
    finishedAt: iso(row.finishedAt),
    carriedFromRunId: row.carriedFromRunId,
    carriedAs: carriedAsOf(row.carriedAs),
  };
}

/**
 * The run a run came from and how, from its columns; null when it came from
 * none. A kind this version does not know (or none, from before kinds were
 * stored) reads as an error workflow's run, the only runs that named a source then.
 */
export function runSourceFromColumns(sourceRunId: string | null, sourceKind: string | null): { runId: string; kind: RunSourceKind } | null {
  if (sourceRunId === null) return null;
  const kind = RunSourceKindSchema.safeParse(sourceKind);
  return { runId: sourceRunId, kind: kind.success ? kind.data : "error-workflow" };
}

/** A stored error kind, read back; one this version does not know reads as `failed`, none as null. */
export function stepErrorKind(value: string | null): StepErrorKind | null {
  if (value === null) return null;
  const parsed = StepErrorKindSchema.safeParse(value);
  return parsed.success ? parsed.data : "failed";
}

/** A stored event: written by the engine through the event contract (lib/contracts/run-event.ts), so read back as such. */
export function toRunEvent(row: Omit<EventRow, "id">): RunEvent {
  return {
    runId: row.runId,
    seq: row.seq,
    type: row.type as RunEventType,
    nodeId: row.nodeId,
    payload: parseJson(row.payload, {}),
    createdAt: row.createdAt.toISOString(),
  } as RunEvent;
}

/** A run's stored permissions column (null: it runs under its version's own). */
export function storedPermissions(column: string | null): RunPermissions | null {
  if (column === null) return null;
  return RunPermissionsSchema.parse(JSON.parse(column));
}

/** A run's stored loop column (null: not a For each item's run). */
export function storedLoop(column: string | null): RunLoop | null {
  if (column === null) return null;
  return RunLoopSchema.parse(JSON.parse(column));
}
