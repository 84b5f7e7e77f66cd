import type { RunLoop } from "@/lib/contracts/run";
import type { ApprovalPreview, WriteGrant } from "@/lib/tools";
import type { ApprovalDecision, ApprovalKind, ApprovalRecord } from "@/lib/contracts/approval";
import type { ApprovalNotificationView } from "@/lib/contracts/notifications";
import type { RunEvent } from "@/lib/contracts/run-event";
import type { StepErrorKind } from "@/lib/contracts/execution-settings";
import type { NodeStatus, RunRecord, RunSourceKind, RunStatus, StepOutput, StepRecord } from "@/lib/contracts/run";
import type { WorkflowDefinition } from "./definition";

// The run's contracts live in lib/contracts; re-exported for the engine's modules.
export { FINISHED_RUN_STATUSES } from "@/lib/contracts/run";
export type { NodeStatus, RunRecord, RunStatus, StepOutput, StepRecord } from "@/lib/contracts/run";
export type { RunEvent, RunEventType } from "@/lib/contracts/run-event";
export type { ApprovalDecision, ApprovalKind, ApprovalRecord, ApprovalStatus } from "@/lib/contracts/approval";

/** A run with everything the engine needs to continue it. */
export interface LoadedRun {
  run: RunRecord;
  definition: WorkflowDefinition;
  steps: StepRecord[];
  /** Someone asked (through another process) to cancel the run, and who; null when nobody did. */
  cancelRequest?: { by: string | null } | null;
  /** The run this one came from, and how (a retry from the failure, a run again, an error workflow's run); null for none. */
  source?: { runId: string; kind: RunSourceKind } | null;
  /** For a For each item's run: its item (its definition is already the loop's body). */
  loop?: RunLoop | null;
  /** Its workflow's grants in force, when the store read them with the run (else the engine asks `listGrants`). */
  grants?: WriteGrant[];
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
  /** The decider's name as shown. */
  decidedBy: string | null;
  /** The deciding person's id; null or absent when no person is known (the CLI's terminal). */
  decidedById?: string | null;
  /** Approved with these arguments instead (or `{ plan }` for a plan), already checked against the tool's input model; see ApprovalRecord.editedArguments. */
  editedArguments?: Record<string, unknown> | null;
}

/** A step's new state, written with the events that announce it. */
export interface StepChange {
  nodeId: string;
  status: NodeStatus;
  input?: unknown;
  output?: StepOutput | null;
  error?: string | null;
  errorKind?: StepErrorKind | null;
  attempt?: number;
  /** When the next attempt of a retrying step is due; null once it starts. */
  retryAt?: string | null;
  startedAt?: string;
  finishedAt?: string | null;
}

export interface RunChange {
  status?: RunStatus;
  output?: unknown;
  error?: string | null;
  /** A failed run's error kind: its first stopping step's (a Sub-workflow step that called it fails with it). */
  errorKind?: StepErrorKind | null;
  finishedAt?: string | null;
}

/** Writes that belong together: applied in one transaction, in order. */
export interface RunCommit {
  run?: RunChange;
  steps: StepChange[];
  events: RunEvent[];
  /**
   * The drive that writes (see `RunStore.claimRun`): the commit applies only
   * while the run is still this drive's, and fails as a whole otherwise.
   */
  driver?: string;
}

/** What of its approvals a run's stored events announced (RunStore.announcedApprovals). */
export interface AnnouncedApprovals {
  requested: Set<string>;
  decided: Set<string>;
  /** Approval id → the approvals its latest `approval-voted` event counted. */
  voted: Map<string, number>;
  /** Approvals whose `approval-escalated` event is stored. */
  escalated: Set<string>;
  /** Notifications (their ids) an `approval-notified` event told of. */
  notified: Set<string>;
  /** Views of cards (their security log entries' ids) an `approval-viewed` event told of. */
  viewed: Set<string>;
}

/** One person's vote toward an approval that needs several, as the engine reads it. */
export interface StoredVote {
  personId: string;
  name: string;
  approve: boolean;
  at: string;
}

/**
 * Where a waiting approval stands short of its decision: the votes cast
 * toward it, when its deadline escalated it, who was told it waits (delivered
 * or failed for good) and who opened its card, each with when.
 */
export interface ApprovalStanding {
  votes: StoredVote[];
  escalatedAt: string | null;
  notifications: (ApprovalNotificationView & { id: string; at: string })[];
  views: { id: string; by: string; at: string }[];
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
  /**
   * Makes `driver` the run's only writer, before the drive reads the run:
   * from then on, commits of any earlier drive (a worker that lost its job but
   * has not noticed yet) fail instead of writing over what this one reads.
   */
  claimRun(runId: string, driver: string): Promise<void>;
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
   * Ids of the run's approvals whose `approval-requested`, `approval-escalated`
   * and `approval-decided` events are stored, and how many approvals toward
   * each that needs several its `approval-voted` events counted, so a resumed
   * run announces exactly what a crash cut off.
   */
  announcedApprovals(runId: string): Promise<AnnouncedApprovals>;
  /** The votes cast toward an approval (oldest first) and its escalation; null when there is no such approval. */
  approvalStanding(approvalId: string): Promise<ApprovalStanding | null>;
  /** The nodes of the run with an approval still pending: what they wait for has not been done. */
  nodesAwaitingDecision(runId: string): Promise<Set<string>>;
  listGrants(workflowId: string): Promise<WriteGrant[]>;
  /** An agent step's latest checkpoint: the turn and its state as JSON text. */
  loadAgentCheckpoint(runId: string, nodeId: string): Promise<{ turn: number; messages: string } | null>;
  /** Stores an agent step's state after `turn`, replacing what was stored for that turn. */
  saveAgentCheckpoint(runId: string, nodeId: string, turn: number, messages: string): Promise<void>;
  /** Stores an "Always allow" (given again, its expiry is counted again); the deciding approval names who gave it. */
  addGrant(workflowId: string, grant: WriteGrant, origin: GrantOrigin): Promise<void>;
}

/** Where a grant came from: the run and step whose "Always allow" gave it, and when it runs out. */
export interface GrantOrigin {
  runId: string;
  nodeId: string;
  expiresAt: Date;
}
