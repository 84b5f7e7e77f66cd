/**
 * A run this process executes, in memory: each node's status, output, attempts
 * and errors, what templates see, and the flags the engine's parts steer it by
 * (parked, handing back, cancelled, crashed, finished). Owns no I/O but its
 * writer, which the engine's `emit` writes through.
 */
import type { WriteGrant } from "@/lib/tools";
import type { RunLoop, RunSourceKind } from "@/lib/contracts/run";
import { executionPolicyOf, type ExecutionPolicy, type OnErrorAction, type StepErrorKind, type StepErrorOutput } from "@/lib/contracts/execution-settings";
import { PERSON_TRIGGER, type RunTrigger } from "@/lib/contracts/run-trigger";
import { executionOf, neverRetried } from "@/nodes/definitions";
import type { CarriedStep } from "../carry-over";
import type { StepDeadline } from "../clock";
import type { WorkflowDefinition, WorkflowNode } from "../definition";
import { ReadWriteLock } from "../read-write-lock";
import type { AnnouncedApprovals, RunStore, StepOutput } from "../run-types";
import { RunWriter } from "../run-writer";
import { buildGraph, failureAction, type NodeStatus, type WorkflowGraph } from "../scheduler";
import { scopeEntryOf, type TemplateScope } from "../templates";

/** The in-memory state of a run this process is executing. */
export class ActiveRun {
  readonly graph: WorkflowGraph;
  readonly nodes: Map<string, WorkflowNode>;
  readonly statuses: Record<string, NodeStatus> = {};
  readonly routes: Record<string, string> = {};
  readonly outputs: Record<string, StepOutput> = {};
  readonly attempts: Record<string, number> = {};
  /** Each failed node's error, for the run's own error message. */
  readonly errors: Record<string, string> = {};
  readonly errorKinds: Record<string, StepErrorKind> = {};
  /** What each failed node's failure does (the scheduler's `failures`): stop the run, continue, or take its error path. */
  readonly failures: Record<string, OnErrorAction> = {};
  /** Steps stored as retrying when the run was loaded: when their next attempt is due (clock milliseconds). */
  readonly retryDue = new Map<string, number>();
  /** Steps waiting for their next attempt here, to be let go at a shutdown. */
  readonly retryWaits = new Map<string, AbortController>();
  /** Time limits of the attempts running now, paused while their step waits for a person. */
  readonly deadlines = new Map<string, StepDeadline>();
  readonly abort = new AbortController();
  readonly lock = new ReadWriteLock();
  readonly writer: RunWriter;
  grants: WriteGrant[] = [];
  /** Approvals already announced as requested / decided, and the votes counted (stored events), for a resumed run. */
  announced: AnnouncedApprovals = { requested: new Set(), decided: new Set(), voted: new Map(), escalated: new Set(), notified: new Set(), viewed: new Set() };
  planApproved = false;
  /** Its workflow's version and when it started, when known: what its trace says of it. */
  version: number | null = null;
  startedAt: string | null = null;
  /** When each step stored as started (running, waiting) when the run was loaded began its attempt. */
  readonly stepsStartedAt = new Map<string, string>();
  /** What started the run; a run started by a trigger node starts there, and the other entry nodes are skipped. */
  trigger: RunTrigger = PERSON_TRIGGER;
  /** What the trigger node received (its step's stored input). */
  triggerPayload: unknown = null;
  /** The run it repeats, and how; announced with its start. */
  source: { runId: string; kind: RunSourceKind } | null = null;
  /** Steps whose results it kept from another run, a pin or typed values (node id -> where from): announced with its start, never run here. */
  readonly carried = new Map<string, Pick<CarriedStep, "fromRunId" | "as">>();
  /** Nodes a test run leaves out (not on its way to the node it tests): announced as skipped with its start, never run here. */
  readonly excluded = new Set<string>();
  /** Steps found running at a resume whose effect may have happened: failed as interrupted, not run again. */
  readonly interrupted: string[] = [];
  inFlight = 0;
  /** Steps waiting for a person (or for runs they started) right now. */
  waiting = 0;
  /** How many child runs each step waits for right now (a For each step: several). */
  readonly childWaitsOf = new Map<string, number>();
  /** Let go without finishing: nothing more is written; another drive replays from the stored state. */
  parked = false;
  /** The drive's claim (RunStore.claimRun), sent with every commit; none for a run this process alone drives. */
  driver: string | undefined = undefined;
  /** Being handed back (shutdown): no new step starts; once nothing is in flight it leaves this process. */
  handingBack = false;
  /** Stopped on an infrastructure error (the database went away): what stopped it, for `drive` to rethrow. */
  crashed: unknown = undefined;
  /** Someone asked another process to cancel it; it is cancelled as soon as it is running here. */
  cancelRequest: { by: string | null } | null = null;
  /** A worker's drive found nothing cut off (no step stored as running): the run was parked or handed back, not interrupted. */
  nothingCutOff = false;
  /**
   * Steps of such a run stored as waiting: replayed to pick up their decisions,
   * they continue their attempt (no new node-started), and stay stored as
   * waiting until the announcement of their decision marks them running.
   */
  readonly storedWaiting = new Set<string>();
  cancelled = false;
  /** Who cancelled, for the run-cancelled event. */
  cancelledBy: string | null = null;
  finished = false;
  readonly settled: Promise<void>;
  resolveSettled!: () => void;

  constructor(
    readonly runId: string,
    readonly workflowId: string,
    readonly definition: WorkflowDefinition,
    readonly inputs: Record<string, unknown>,
    public seq: number,
    store: RunStore,
  ) {
    this.graph = buildGraph(definition);
    this.nodes = new Map(definition.nodes.map((node) => [node.id, node]));
    this.writer = new RunWriter(store, runId);
    this.settled = new Promise((resolve) => (this.resolveSettled = resolve));
  }

  /** What templates see, kept up to date as nodes finish (rebuilding it per step made long runs quadratic). */
  private scopeNodes: Record<string, { output: unknown; data?: unknown }> = {};

  /** For a For each item's run: its item, and what its loop's run had computed before the loop. */
  loop: RunLoop | null = null;

  /** An item's run: its templates read the item, and the loop's run's earlier steps as their own. */
  setLoop(loop: RunLoop | null): void {
    this.loop = loop;
    if (loop) this.scopeNodes = { ...loop.nodes, ...this.scopeNodes };
  }

  scope(): TemplateScope {
    return { inputs: this.inputs, nodes: this.scopeNodes, ...(this.loop ? { loop: { item: this.loop.item, index: this.loop.index } } : {}) };
  }

  /** Each node's execution settings over the workflow's defaults, worked out once. */
  private readonly policies = new Map<string, ExecutionPolicy>();

  policyOf(nodeId: string): ExecutionPolicy {
    let policy = this.policies.get(nodeId);
    if (!policy) {
      const node = this.nodes.get(nodeId);
      policy = executionPolicyOf({ execution: node ? executionOf(node) : undefined }, this.definition);
      // Retrying a For each step would run its items again, those that succeeded among them: one attempt, always.
      if (node && neverRetried(node.kind)) policy = { ...policy, maxAttempts: 1 };
      this.policies.set(nodeId, policy);
    }
    return policy;
  }

  /**
   * A node failed for good: what its failure does from now on. When the run
   * goes on despite it (continue, an error path), the steps after it read the
   * error as its output.
   */
  failed(nodeId: string, message: string, kind: StepErrorKind): OnErrorAction {
    const action = kind === "cancelled" ? "stop" : failureAction(this.graph, nodeId, this.policyOf(nodeId).onError);
    this.statuses[nodeId] = "failed";
    this.errors[nodeId] = message;
    this.errorKinds[nodeId] = kind;
    this.failures[nodeId] = action;
    if (action !== "stop") {
      const output: StepErrorOutput = { error: { message, kind, nodeId } };
      this.scopeNodes[nodeId] = { output, data: output };
    }
    return action;
  }

  succeeded(nodeId: string, output: StepOutput): void {
    this.statuses[nodeId] = "succeeded";
    this.outputs[nodeId] = output;
    if (output.route) this.routes[nodeId] = output.route;
    this.scopeNodes[nodeId] = scopeEntryOf(output);
  }

  skipped(nodeId: string): void {
    this.statuses[nodeId] = "skipped";
    // A skipped branch reads as empty, so a join after a router can refer to every branch.
    this.scopeNodes[nodeId] = { output: null, data: null };
  }
}
