import type { ApprovalPreview, ToolImage, WriteGrant } from "@/lib/tools";
import type { WorkflowDefinition } from "./definition";
import type { NodeStatus } from "./scheduler";

/** Where a run stands. `awaiting_input` = at least one step waits for a person. */
export type RunStatus = "running" | "succeeded" | "failed" | "cancelled" | "awaiting_input";

export const FINISHED_RUN_STATUSES: ReadonlySet<RunStatus> = new Set(["succeeded", "failed", "cancelled"]);

// The event contract lives in lib/contracts; re-exported for the engine's modules.
import type { RunEvent } from "@/lib/contracts/run-event";
export type { RunEvent, RunEventType } from "@/lib/contracts/run-event";

/** What a finished step produced. */
export interface StepOutput {
  /** The text result (what a model would read). */
  content: string;
  /** Structured result (rows, records), when the tool gave one. */
  data?: unknown;
  images?: readonly ToolImage[];
  /** For routers: the route taken. */
  route?: string;
}

/** One node's record in a run. */
export interface StepRecord {
  nodeId: string;
  status: NodeStatus;
  input: unknown;
  output: StepOutput | null;
  error: string | null;
  attempt: number;
  startedAt: string | null;
  finishedAt: string | null;
}

export interface RunRecord {
  id: string;
  workflowId: string;
  versionId: string;
  version: number;
  status: RunStatus;
  inputs: Record<string, unknown>;
  output: unknown;
  error: string | null;
  lastSeq: number;
  createdAt: string;
  startedAt: string;
  finishedAt: string | null;
}

/** A run with everything the engine needs to continue it. */
export interface LoadedRun {
  run: RunRecord;
  definition: WorkflowDefinition;
  steps: StepRecord[];
}

export type ApprovalKind = "write" | "shell" | "network" | "mcp" | "plan" | "ask";
export type ApprovalStatus = "pending" | "approved" | "denied" | "answered" | "cancelled";
/** `once`/`always`/`deny` for writes; `approve`/`deny` for shell, network, MCP and plans; `answer` for questions. */
export type ApprovalDecision = "once" | "always" | "approve" | "deny" | "answer";

export interface ApprovalRecord {
  id: string;
  runId: string;
  nodeId: string;
  key: string;
  kind: ApprovalKind;
  tool: string | null;
  operation: string | null;
  arguments: Record<string, unknown>;
  /** What would happen as text, every hidden character marked (terminals, logs). */
  preview: string;
  /** What would happen as data: what the cards render. */
  effect: ApprovalPreview;
  /** approvalDigest(arguments, effect): a decision naming another digest is refused. */
  digest: string;
  status: ApprovalStatus;
  decision: ApprovalDecision | null;
  feedback: string | null;
  decidedBy: string | null;
  decidedAt: string | null;
  createdAt: string;
}

export interface ApprovalRequest {
  runId: string;
  nodeId: string;
  key: string;
  kind: ApprovalKind;
  tool: string | null;
  operation: string | null;
  arguments: Record<string, unknown>;
  preview: string;
  /** What would happen as data; a text effect of `preview` when not given (plans, questions). */
  effect?: ApprovalPreview;
}

/** A person's decision on an approval. */
export interface ApprovalDecisionInput {
  decision: ApprovalDecision;
  /** A reason for a denial, an instruction, or the answer to a question. */
  feedback: string | null;
  decidedBy: string | null;
}

/** A step's new state, written with the events that announce it. */
export interface StepChange {
  nodeId: string;
  status: NodeStatus;
  input?: unknown;
  output?: StepOutput | null;
  error?: string | null;
  attempt?: number;
  startedAt?: string;
  finishedAt?: string | null;
}

export interface RunChange {
  status?: RunStatus;
  output?: unknown;
  error?: string | null;
  finishedAt?: string | null;
}

/** Writes that belong together: applied in one transaction, in order. */
export interface RunCommit {
  run?: RunChange;
  steps: StepChange[];
  events: RunEvent[];
}

/**
 * Everything the engine persists, behind an interface so the engine stays
 * free of Prisma (lib/persistence implements it on the database).
 */
export interface RunStore {
  loadRun(runId: string): Promise<LoadedRun | null>;
  /** Runs that were running or waiting when the process stopped. */
  unfinishedRunIds(): Promise<string[]>;
  /** Applies a group of changes in one transaction. */
  commit(runId: string, commit: RunCommit): Promise<void>;
  /** The approval for `(runId, key)`, created pending if there is none: a replayed step finds its own. */
  openApproval(request: ApprovalRequest & { digest: string }): Promise<{ approval: ApprovalRecord; created: boolean }>;
  getApproval(id: string): Promise<ApprovalRecord | null>;
  /**
   * Records a decision if the approval is still pending (atomically: a
   * repeated or concurrent decision changes nothing). `null` = no such approval.
   */
  decideApproval(id: string, decision: ApprovalDecisionInput): Promise<{ approval: ApprovalRecord; changed: boolean } | null>;
  /**
   * Withdraws a pending approval whose call now would do something else (its
   * digest changed on a replay): a decision on it is refused as already made.
   */
  supersedeApproval(id: string): Promise<void>;
  /** Cancels every pending approval of a run; returns their ids. */
  cancelApprovals(runId: string): Promise<string[]>;
  /**
   * Ids of the run's approvals whose `approval-requested` and `approval-decided`
   * events are stored, so a resumed run announces exactly what a crash cut off.
   */
  announcedApprovals(runId: string): Promise<{ requested: Set<string>; decided: Set<string> }>;
  listGrants(workflowId: string): Promise<WriteGrant[]>;
  /** An agent step's latest checkpoint: the turn and its state as JSON text. */
  loadAgentCheckpoint(runId: string, nodeId: string): Promise<{ turn: number; messages: string } | null>;
  /** Stores an agent step's state after `turn`, replacing what was stored for that turn. */
  saveAgentCheckpoint(runId: string, nodeId: string, turn: number, messages: string): Promise<void>;
  addGrant(workflowId: string, grant: WriteGrant, createdBy: string | null): Promise<void>;
}
