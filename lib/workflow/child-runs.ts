import type { StepErrorKind } from "@/lib/contracts/execution-settings";
import type { RunLoop } from "@/lib/contracts/run";
import type { CallerPermissions } from "./caller-permissions";
import { ParkedRun, RunCancelled } from "./step-errors";
import { markedError } from "@/lib/marked-error";

/**
 * What the engine needs to let a Sub-workflow step call another workflow: a
 * way to start (or, on a replay, find) the child run, to read how it ended,
 * and to cancel children. The studio implements it on the database and its
 * way of driving runs (lib/server/sub-workflows.ts); the engine stays free of
 * Prisma.
 */

/** Which saved version a Sub-workflow step calls: a pinned version, or the workflow's published one. */
export type CalledVersion = number | "published";

/** The child run a Sub-workflow step asks for: one per step attempt, so a replay of that attempt finds it. */
export interface ChildRunRequest {
  /** `permissions`: what the calling run runs under; the child never runs under freer ones. */
  parent: { runId: string; workflowId: string; nodeId: string; attempt: number; permissions: CallerPermissions };
  workflowId: string;
  version: CalledVersion;
  inputs: Record<string, unknown>;
}

/**
 * One item of a For each step's attempt: a run of the same workflow version
 * restricted to the loop's body, with the item. One per item of an attempt,
 * so a replay of that attempt finds the items it started.
 */
export interface LoopItemRequest {
  parent: ChildRunRequest["parent"];
  item: unknown;
  index: number;
  count: number;
  /** What the loop's run had computed before the loop: the item's templates read it as `{{ nodes.… }}`. */
  nodes: RunLoop["nodes"];
}

export interface ChildRunStarted {
  runId: string;
  workflowId: string;
  workflowName: string;
  version: number;
  /**
   * Whether the calling run's events already hold this child's
   * `child-run-started`: false for a child just started, and for one a replay
   * found that was started but never announced (the process stopped between
   * the two). The step says it started when this is false, so each child is
   * announced once.
   */
  announced: boolean;
}

/** How a finished child run ended, as its parent's step reads it. */
export type ChildRunOutcome =
  | { status: "succeeded"; output: unknown }
  | { status: "failed" | "cancelled"; error: string; errorKind: StepErrorKind | null };

export interface ChildRuns {
  /**
   * The child run of `request.parent`'s attempt: found when it exists, else
   * started (inputs checked, the workflow validated, a cycle refused). A
   * refusal throws ChildRunRefused.
   */
  start(request: ChildRunRequest): Promise<ChildRunStarted>;
  /** The run of one item of a For each step's attempt: found when it exists, else started. */
  startItem(request: LoopItemRequest): Promise<ChildRunStarted>;
  /** How the run ended; null while it is unfinished. */
  outcome(runId: string): Promise<ChildRunOutcome | null>;
  /** Cancels one run (a step's time limit passed while its child ran). */
  cancel(runId: string, by: string | null): Promise<void>;
  /** Cancels every unfinished run the steps of `parentRunId` called (the parent was cancelled). */
  cancelChildren(parentRunId: string, by: string | null): Promise<void>;
  /**
   * `runId` has finished: if a Sub-workflow step called it, see that the
   * parent run is driven on (with workers: its job). Called again by any
   * later drive of the finished run, so a crash right after its end was
   * recorded still wakes the parent.
   */
  finished(runId: string): Promise<void>;
}

/** A child run could not start: its inputs do not fit, it cannot run, or calling it would loop. Not retried. */
export class ChildRunRefused extends markedError("neurosurfer.child-run-refused", "ChildRunRefused") {
  constructor(
    message: string,
    readonly kind: "invalid-input" | "not-found" = "invalid-input",
  ) {
    super(message);
  }
}

interface Waiter {
  parentRunId: string;
  resolve: (outcome: ChildRunOutcome) => void;
  reject: (error: Error) => void;
}

/**
 * The steps of this process waiting for a child run to finish, by the
 * child's id. The child's end wakes them when it is recorded here; a child
 * driven elsewhere wakes its parent through `ChildRuns.finished` (a new drive
 * of the parent, whose replayed step reads the stored outcome).
 */
export class ChildRunWaits {
  private readonly waiters = new Map<string, Set<Waiter>>();

  /** Registers a wait before the stored outcome is read, so an end recorded in between is not missed. */
  register(parentRunId: string, childRunId: string): { promise: Promise<ChildRunOutcome>; dispose: () => void; reject: (error: Error) => void } {
    let waiter!: Waiter;
    const promise = new Promise<ChildRunOutcome>((resolve, reject) => {
      waiter = { parentRunId, resolve, reject };
    });
    // Whoever disposes it may never await it (the stored outcome answered first).
    promise.catch(() => undefined);
    const set = this.waiters.get(childRunId) ?? new Set<Waiter>();
    set.add(waiter);
    this.waiters.set(childRunId, set);
    const dispose = () => {
      set.delete(waiter);
      if (set.size === 0 && this.waiters.get(childRunId) === set) this.waiters.delete(childRunId);
    };
    return { promise, dispose, reject: (error) => waiter.reject(error) };
  }

  /** The child ended (recorded): its waiting parents go on. */
  finished(childRunId: string, outcome: ChildRunOutcome): void {
    for (const waiter of this.waiters.get(childRunId) ?? []) waiter.resolve(outcome);
  }

  /** The parent is let go (parked, handed back): its waits end with ParkedRun and record nothing. */
  releaseRun(parentRunId: string): void {
    this.rejectRun(parentRunId, new ParkedRun());
  }

  /** The parent is cancelled: its waits end with RunCancelled. */
  cancelRun(parentRunId: string): void {
    this.rejectRun(parentRunId, new RunCancelled());
  }

  private rejectRun(parentRunId: string, error: Error): void {
    for (const set of this.waiters.values()) for (const waiter of set) if (waiter.parentRunId === parentRunId) waiter.reject(error);
  }
}
