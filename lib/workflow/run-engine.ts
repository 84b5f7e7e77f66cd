import { randomUUID } from "node:crypto";
import os from "node:os";
import { type SecretResolver, type ToolPool, type WriteGrant } from "@/lib/tools";
import type { NewRunEvent } from "@/lib/contracts/run-event";
import type { RunLoop, RunSourceKind } from "@/lib/contracts/run";
import {
  executionPolicyOf,
  retryDelayMs,
  type ExecutionPolicy,
  type OnErrorAction,
  type StepErrorKind,
  type StepErrorOutput,
} from "@/lib/contracts/execution-settings";
import { PERSON_TRIGGER, RUN_TRIGGER_LABELS, type RunTrigger } from "@/lib/contracts/run-trigger";
import { executionOf, neverRetried, onlyComputes, resumesInPlace, startsRunsOf } from "@/nodes/definitions";
import type { NodeExecutionContext, StepResult } from "@/nodes/node-kind-server";
import { serverOf } from "@/nodes/server";
import type { AgentModelFactory } from "./agent/agent-model";
import { ApprovalWaits, type ApprovalAnnouncement, type WaitingRun } from "./approvals/approval-waits";
import { ChildRunWaits, type ChildRunOutcome, type ChildRuns } from "./child-runs";
import { StepDeadline, systemClock, type Clock } from "./clock";
import type { WorkflowDefinition, WorkflowNode } from "./definition";
import type { RunEventBus } from "./event-bus";
import { ReadWriteLock } from "./read-write-lock";
import type {
  ApprovalDecisionInput,
  ApprovalRecord,
  ApprovalRequest,
  RunChange,
  RunEvent,
  RunStatus,
  RunStore,
  StepChange,
  StepOutput,
} from "./run-types";
import { RunWriter } from "./run-writer";
import type { CarriedStep } from "./carry-over";
import { buildGraph, failureAction, nextSteps, type NodeStatus, type WorkflowGraph } from "./scheduler";
import { ParkedRun, RunCancelled, StepFailure, StepTimedOut } from "./step-errors";
import { scopeEntryOf, TemplateError, type TemplateScope } from "./templates";
import { enclosingLoops, loopItemOutput } from "./loop-body";
import { maskSecretInputs } from "./mask-secret-inputs";

export interface RunEngineOptions {
  store: RunStore;
  bus: RunEventBus;
  /** The tools runs may use (built-ins, later MCP tools); asked per run. */
  pool: () => ToolPool;
  secrets: SecretResolver;
  /** Working directory for tools without a root setting; never the server's checkout. */
  workingDirectory?: string;
  log?: (message: string, error?: unknown) => void;
  /** Builds agent nodes' models; tests pass a mock. Default: the AI SDK providers. */
  agentModel?: AgentModelFactory;
  /** Look for decisions made by another process (the studio deciding a CLI-driven run) this often while a step waits. */
  decisionsElsewhereEveryMs?: number;
  /**
   * Let go of a run as soon as everything in it waits for a person (a worker
   * process: a waiting run holds no worker). The run's state is all stored; the
   * decision's job drives it again, and the replayed steps find their approvals.
   */
  parkWhenWaiting?: boolean;
  /** The time retries wait by and step time limits run by; tests pass a FakeClock. Default: the real clock. */
  clock?: Clock;
  /**
   * Starts the error workflow a failed run's workflow names (`errorWorkflowId`)
   * and resolves with its run's id, or null when none was started. Called
   * again for a run whose end a restart cut short: it must find the run it
   * started before rather than start a second. Absent: error workflows do not run.
   */
  startErrorWorkflow?: (failure: RunFailureReport) => Promise<string | null>;
  /** Starts and reads the runs Sub-workflow steps call; absent (a file run by the CLI): such steps fail saying so. */
  childRuns?: ChildRuns;
}

/** What an error workflow is told about the run that failed. */
export interface RunFailureReport {
  runId: string;
  workflowId: string;
  workflowName: string;
  errorWorkflowId: string;
  /** The first node whose failure stopped the run; null when the run as a whole failed (its plan rejected). */
  nodeId: string | null;
  error: string;
  errorKind: StepErrorKind | null;
}

/**
 * How `drive` ended: the run finished; it was let go (all of it waiting for a
 * person, or the caller's signal); or it was handed back at shutdown, its
 * in-flight steps finished, to be driven on elsewhere.
 */
export type DriveOutcome = "finished" | "parked" | "handed-back";

/** The error of a step that changes the world and was cut off by a restart while it ran (its kind: `interrupted`, never retried). */
export const INTERRUPTED =
  "Interrupted by a restart while it ran: it may or may not have taken effect, so it was not run again. Check what it was doing, then run the workflow again if needed.";

/** A run as its creator just wrote it (every node pending, no events yet). */
export interface CreatedRun {
  workflowId: string;
  definition: WorkflowDefinition;
  inputs: Record<string, unknown>;
  /** What started it (default: a person at the run inputs node). */
  trigger?: RunTrigger;
  /** What the trigger node received (a webhook's request), stored as that step's input. */
  triggerPayload?: unknown;
  /** The run it repeats, and how (a retry from the failure, a run again). */
  source?: { runId: string; kind: RunSourceKind } | null;
  /** Steps it keeps from that run (or, a test run, from pins and typed values), written succeeded with it: they do not run here. */
  carried?: readonly CarriedStep[];
  /** Nodes a test run leaves out, written skipped with it: they do not run here. */
  excluded?: readonly string[];
  /** For a For each item's run: its item (`definition` is the loop's body alone). */
  loop?: RunLoop | null;
}

/** The approval key of a run's plan (plan mode); one per run. */
const PLAN_KEY = "__run__:plan";
const PLAN_NODE = "__run__";

/** The in-memory state of a run this process is executing. */
class ActiveRun {
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
  /** Approvals already announced as requested / decided (stored events), for a resumed run. */
  announced: { requested: Set<string>; decided: Set<string> } = { requested: new Set(), decided: new Set() };
  planApproved = false;
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

/**
 * Executes workflow runs on the server: schedules nodes with the pure
 * scheduler, runs them through the tool framework, persists every state
 * change and event (before publishing it), waits for people through stored
 * approvals, and resumes unfinished runs after a restart without re-running
 * finished steps.
 */
export class RunEngine {
  private readonly active = new Map<string, ActiveRun>();
  private readonly approvals: ApprovalWaits;
  /** Sub-workflow steps of runs here waiting for their child runs. */
  private readonly childWaits = new ChildRunWaits();
  private readonly workingDirectory: string;
  private readonly clock: Clock;

  constructor(private readonly options: RunEngineOptions) {
    this.workingDirectory = options.workingDirectory ?? os.homedir();
    this.clock = options.clock ?? systemClock;
    this.approvals = new ApprovalWaits(
      options.store,
      options.decisionsElsewhereEveryMs ? { decisionsElsewhereEveryMs: options.decisionsElsewhereEveryMs } : {},
    );
  }

  /**
   * Starts a run created by the API (status running, no steps finished).
   * `created`: the run as it was just written, so it need not be read back.
   */
  async start(runId: string, created?: CreatedRun): Promise<void> {
    const run = created ? await this.activateCreated(runId, created) : await this.activate(runId);
    if (!run) return;
    const announced = this.emit(run, startEvents(run, { withTrigger: true }), { status: "running" });
    // The run begins without waiting for its announcement to be stored, so its first step's start joins the same
    // transaction (one commit less per run): the run's writer keeps the order and publishes nothing before it is
    // stored, and if the announcement fails, so does every write after it and the run stops as crashed. A plan is
    // the exception: its approval is stored outside the writer, so only once the run is announced.
    if (run.definition.mode === "plan") await announced;
    void this.begin(run);
    await announced;
  }

  /**
   * Drives one stored run, as a worker does for the job that names it: a new
   * run starts, an unfinished one resumes (what `resumeAll` does for each), a
   * finished one is left alone. Resolves when the run finishes or is parked
   * (see `parkWhenWaiting`); aborting `signal` parks it at once (the job's
   * claim was lost: another worker may be taking over, so nothing more is
   * written here).
   */
  async drive(runId: string, options: { signal?: AbortSignal } = {}): Promise<DriveOutcome> {
    // Still leaving this process (its last writes on their way): this job came after it let go, so once it
    // has left, the run is driven again from what is stored (a finished one is left alone below).
    const current = this.active.get(runId);
    if (current) await current.settled;
    // Claimed before it is read: a drive that lost this run's job can no longer write over what this one reads.
    const driver = randomUUID();
    await this.options.store.claimRun(runId, driver);
    const run = await this.activate(runId, { continueParked: true });
    if (!run) {
      // A job for a finished run: if a step of another run called it, that run must hear of its end (a crash may have cut the first word off).
      await this.options.childRuns?.finished(runId);
      return "finished";
    }
    run.driver = driver;
    const onAbort = () => {
      // Said on the log: a step cut off here is reported as interrupted by whoever drives the run next.
      const reason = options.signal?.reason instanceof Error ? options.signal.reason.message : String(options.signal?.reason ?? "aborted");
      this.options.log?.(`Run ${runId} is no longer driven here (${reason}); steps in flight are stopped`);
      this.park(run, { abortTools: true });
    };
    options.signal?.addEventListener("abort", onAbort, { once: true });
    try {
      await this.kickOff(run);
      await run.settled;
      // The job fails and is retried (with backoff) until the database answers again; the retry resumes the run.
      if (run.crashed !== undefined) throw new Error(`Run ${runId} stopped on an internal error; it is driven again`, { cause: run.crashed });
      return outcomeOf(run);
    } catch (error) {
      if (!run.finished) await this.crash(run, error);
      throw error;
    } finally {
      options.signal?.removeEventListener("abort", onAbort);
    }
  }

  /**
   * Shutdown: every run driven here starts nothing new, lets its in-flight
   * steps finish and then leaves this process (its drive resolves
   * "handed-back"); steps waiting for a person stop waiting here at once.
   * After `graceMs`, what is still in flight is cut off (parked, tools
   * aborted): whoever drives the run next treats those steps as interrupted.
   */
  async handBackAll(graceMs: number): Promise<void> {
    const runs = [...this.active.values()];
    for (const run of runs) {
      if (run.finished) continue;
      run.handingBack = true;
      this.approvals.releaseRun(run.runId);
      this.childWaits.releaseRun(run.runId);
      // A step waiting for its next attempt is stored as such (with when it is due): it goes on wherever the run is driven next.
      for (const wait of run.retryWaits.values()) wait.abort();
      this.pump(run);
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        for (const run of runs) this.park(run, { abortTools: true });
        resolve();
      }, graceMs);
    });
    await Promise.race([Promise.all(runs.map((run) => run.settled)), late]);
    clearTimeout(timer);
    await Promise.all(runs.map((run) => run.settled));
  }

  /** Another process recorded a decision on `approvalId`: wake its step if it waits here. */
  async noticeDecision(approvalId: string): Promise<void> {
    await this.approvals.noticeDecision(approvalId);
  }

  /** Continues every run that was running or waiting when the process stopped. */
  async resumeAll(): Promise<string[]> {
    const ids = await this.options.store.unfinishedRunIds();
    for (const runId of ids) {
      if (this.active.has(runId)) continue;
      const run = await this.activate(runId);
      if (run) await this.kickOff(run);
    }
    return ids;
  }

  /**
   * Announces a stored run as started (nothing happened yet) or resumed (with
   * the steps a restart interrupted), then runs it. A run that was parked
   * (waiting for a person, nothing cut off) goes on quietly: its replayed steps
   * find their decisions and say so, as they would had they waited here. A run
   * someone asked to cancel meanwhile is cancelled instead.
   */
  private async kickOff(run: ActiveRun): Promise<void> {
    if (run.seq === 0) {
      await this.emit(run, startEvents(run, { withTrigger: false }), { status: "running" });
    } else if (run.nothingCutOff) {
      if (!run.cancelRequest) await this.emit(run, [], { status: "running" });
    } else {
      const finishedAt = now();
      await this.emit(
        run,
        [
          { type: "run-resumed", nodeId: null, payload: {} },
          ...run.interrupted.map((nodeId): PendingEvent => ({ type: "node-failed", nodeId, payload: failedPayload(run, nodeId, 0) })),
        ],
        { status: "running" },
        run.interrupted.map((nodeId) => ({ nodeId, status: "failed", error: INTERRUPTED, errorKind: "interrupted", retryAt: null, finishedAt })),
      );
    }
    if (run.cancelRequest) {
      // Nothing of it runs: its approvals are withdrawn (announced before the run-cancelled event) and it ends cancelled.
      run.cancelled = true;
      run.cancelledBy = run.cancelRequest.by;
      await this.approvals.cancelRun(this.waitingRun(run));
      // A step that waited for its next attempt gets none.
      const retrying = [...run.retryDue.keys()];
      run.retryDue.clear();
      const cancelled = new RunCancelled().message;
      for (const nodeId of retrying) run.failed(nodeId, cancelled, "cancelled");
      if (retrying.length > 0) {
        await this.emit(
          run,
          retrying.map((nodeId): PendingEvent => ({ type: "node-failed", nodeId, payload: failedPayload(run, nodeId, 0) })),
          undefined,
          retrying.map((nodeId) => ({ nodeId, status: "failed", error: cancelled, errorKind: "cancelled", retryAt: null, finishedAt: now() })),
        );
      }
      this.pump(run);
      return;
    }
    void this.begin(run);
  }

  /**
   * Lets go of a run without finishing it: its waiting steps stop waiting here
   * (ParkedRun, which records nothing), and once nothing of it is in flight it
   * leaves this process. What is stored stays as it is: the run awaiting
   * input, its steps waiting, their approvals pending.
   */
  private park(run: ActiveRun, options: { abortTools?: boolean } = {}): void {
    if (run.finished || run.parked) return;
    run.parked = true;
    if (options.abortTools) run.abort.abort();
    this.approvals.releaseRun(run.runId);
    this.childWaits.releaseRun(run.runId);
    this.pump(run);
  }

  /** With `parkWhenWaiting`: parks the run once every step in flight waits for a person (and it is not being cancelled). */
  private parkIfAllWaiting(run: ActiveRun): void {
    if (!this.options.parkWhenWaiting || run.finished || run.cancelled || run.parked) return;
    // >=: the plan waits before any step is in flight, and an agent step may wait on several calls at once.
    if (run.waiting === 0 || run.waiting < run.inFlight) return;
    // An agent waiting inside a turn is kept: replaying it would ask the model that turn again (its checkpoints are per finished turn).
    const agentInFlight = Object.entries(run.statuses).some(
      ([nodeId, status]) => (status === "running" || status === "waiting") && run.nodes.get(nodeId)?.kind === "agent",
    );
    if (!agentInFlight) this.park(run);
  }

  isActive(runId: string): boolean {
    return this.active.has(runId);
  }

  /** Resolves when the run has finished (or at once if it is not active here). */
  async settled(runId: string): Promise<void> {
    await this.active.get(runId)?.settled;
  }

  /** Resolves when every active run has finished. */
  async idle(): Promise<void> {
    while (this.active.size > 0) await Promise.all([...this.active.values()].map((run) => run.settled));
  }

  /**
   * Records a person's decision and wakes the step waiting for it. A second
   * decision on the same approval changes nothing (`changed: false`).
   */
  async decide(approvalId: string, decision: ApprovalDecisionInput): Promise<{ approval: ApprovalRecord; changed: boolean } | null> {
    return this.approvals.decide(approvalId, decision);
  }

  /**
   * Stops a run: aborts running tools, withdraws its pending approvals (each
   * announced as decided, status cancelled, before the run-cancelled event)
   * and marks it cancelled. Returns false when the run is not running here.
   */
  async cancel(runId: string, by: string | null = null): Promise<boolean> {
    const run = this.active.get(runId);
    if (!run || run.finished) return false;
    run.cancelled = true;
    run.cancelledBy = by;
    run.abort.abort();
    this.childWaits.cancelRun(run.runId);
    await this.approvals.cancelRun(this.waitingRun(run));
    this.pump(run);
    await run.settled;
    return true;
  }

  /** Whether running `node` may have changed something outside the run (a tool that is not read-only; an unknown one counts). */
  private changesTheWorld(node: WorkflowNode | undefined): boolean {
    if (node?.kind !== "tool") return false;
    const tool = this.options.pool().get(node.tool);
    if (!tool) return true;
    return tool.isDestructive((node.operation ? { ...node.arguments, operation: node.operation } : node.arguments) as never);
  }

  /** Whether `node` may start before its start is stored: running it again is harmless (a read-only tool, a step that only computes). */
  private startsBeforeStored(node: WorkflowNode): boolean {
    return node.kind === "tool" ? !this.changesTheWorld(node) : onlyComputes(node.kind);
  }

  /** A run that was just created: nothing has happened to it yet, so there is nothing to read back but the workflow's grants. */
  private async activateCreated(runId: string, created: CreatedRun): Promise<ActiveRun> {
    const run = new ActiveRun(runId, created.workflowId, created.definition, created.inputs, 0, this.options.store);
    run.trigger = created.trigger ?? PERSON_TRIGGER;
    run.triggerPayload = created.triggerPayload ?? null;
    run.source = created.source ?? null;
    run.setLoop(created.loop ?? null);
    for (const step of created.carried ?? []) {
      run.succeeded(step.nodeId, step.output);
      run.carried.set(step.nodeId, { fromRunId: step.fromRunId, ...(step.as ? { as: step.as } : {}) });
    }
    for (const nodeId of created.excluded ?? []) {
      run.skipped(nodeId);
      run.excluded.add(nodeId);
    }
    run.grants = await this.options.store.listGrants(created.workflowId);
    this.active.set(runId, run);
    return run;
  }

  /**
   * Loads a stored run to drive it here. `continueParked` (a worker's drive): a
   * run stored as waiting with nothing cut off continues quietly, its waiting
   * steps the same attempt; otherwise (a restart's resume) it is announced as
   * resumed and its steps start again.
   */
  private async activate(runId: string, options: { continueParked?: boolean } = {}): Promise<ActiveRun | null> {
    const loaded = await this.options.store.loadRun(runId);
    if (!loaded) return null;
    const { run: record, definition, steps } = loaded;
    if (record.status === "succeeded" || record.status === "failed" || record.status === "cancelled") return null;
    const run = new ActiveRun(runId, record.workflowId, definition, record.inputs, record.lastSeq, this.options.store);
    run.trigger = record.trigger;
    run.triggerPayload = steps.find((step) => step.nodeId === record.trigger.nodeId)?.input ?? null;
    run.source = loaded.source ?? null;
    run.setLoop(loaded.loop ?? null);
    const cutOff = steps.filter((step) => step.status === "running" && this.changesTheWorld(run.nodes.get(step.nodeId)));
    // A step whose approval is still pending has done nothing yet, even if the process stopped before its status
    // said "waiting" (the approval is stored first, then announced): it waits again, on the same approval.
    const awaitingDecision = cutOff.length > 0 ? await this.options.store.nodesAwaitingDecision(runId) : new Set<string>();
    for (const step of steps) {
      run.attempts[step.nodeId] = step.attempt;
      // A step that changes the world and was running when the process stopped may have done so: it is not run
      // again behind anyone's back (at most once), it fails saying so. Read-only steps, and steps still waiting
      // for a person (nothing done yet), simply run again.
      if (cutOff.includes(step) && !awaitingDecision.has(step.nodeId)) {
        run.failed(step.nodeId, INTERRUPTED, "interrupted");
        run.interrupted.push(step.nodeId);
        continue;
      }
      if (step.status === "succeeded" && (step.carriedFromRunId || step.carriedAs)) {
        run.carried.set(step.nodeId, { fromRunId: step.carriedFromRunId, ...(step.carriedAs ? { as: step.carriedAs } : {}) });
      }
      // A test run not yet announced: what it left out was written skipped with it.
      if (step.status === "skipped" && record.lastSeq === 0 && record.trigger.testOf) run.excluded.add(step.nodeId);
      if (step.status === "succeeded" && step.output) run.succeeded(step.nodeId, step.output);
      else if (step.status === "skipped") run.skipped(step.nodeId);
      else if (step.status === "succeeded") run.statuses[step.nodeId] = step.status;
      else if (step.status === "failed") run.failed(step.nodeId, step.error ?? "The step failed.", step.errorKind ?? "failed");
      // Between two attempts: it starts again (pending) once what is left of its wait has passed, its attempts counted on.
      else if (step.status === "retrying") run.retryDue.set(step.nodeId, step.retryAt ? Date.parse(step.retryAt) : this.clock.now());
    }
    run.cancelRequest = loaded.cancelRequest ?? null;
    run.nothingCutOff = options.continueParked === true && !steps.some((step) => step.status === "running");
    if (run.nothingCutOff) for (const step of steps) if (step.status === "waiting") run.storedWaiting.add(step.nodeId);
    // A step that waits on something stored under its attempt (a Sub-workflow step's child run) picks that attempt up again.
    for (const step of steps) {
      const kind = run.nodes.get(step.nodeId)?.kind;
      if ((step.status === "running" || step.status === "waiting") && kind && resumesInPlace(kind)) run.storedWaiting.add(step.nodeId);
    }
    run.grants = await this.options.store.listGrants(record.workflowId);
    // A run with events may be resuming: learn which approvals it already announced.
    if (record.lastSeq > 0) run.announced = await this.options.store.announcedApprovals(runId);
    this.active.set(runId, run);
    return run;
  }

  private async begin(run: ActiveRun): Promise<void> {
    try {
      if (run.definition.mode === "plan") {
        const approval = await this.awaitApproval(run, {
          runId: run.runId,
          nodeId: PLAN_NODE,
          key: PLAN_KEY,
          kind: "plan",
          tool: null,
          operation: null,
          arguments: {},
          // What runs here: a test run's kept and left-out steps are not part of its plan.
          preview: describePlan(run.definition, this.options.pool(), (nodeId) => !run.carried.has(nodeId) && !run.excluded.has(nodeId)),
        });
        if (approval.decision !== "approve") {
          const reason = approval.feedback ? ` The person said: ${approval.feedback}` : "";
          await this.finish(run, "failed", { error: `The plan was rejected.${reason}` });
          return;
        }
        run.planApproved = true;
      }
      await this.settleBeforeStart(run);
      this.pump(run);
    } catch (error) {
      if (error instanceof RunCancelled || error instanceof ParkedRun) this.pump(run);
      else await this.crash(run, error);
    }
  }

  /** Starts what is ready, skips what cannot run, and finishes the run when nothing is left. */
  private pump(run: ActiveRun): void {
    if (run.finished) return;
    if (run.parked || run.handingBack) {
      if (run.inFlight === 0) this.leave(run);
      return;
    }
    if (run.cancelled) {
      if (run.inFlight === 0) void this.finish(run, "cancelled", { error: "Cancelled." });
      return;
    }
    const decision = nextSteps(run.graph, { statuses: run.statuses, routes: run.routes, failures: run.failures });
    const changes: StepChange[] = [];
    const events: PendingEvent[] = [];
    for (const nodeId of decision.skip) {
      run.skipped(nodeId);
      changes.push({ nodeId, status: "skipped", finishedAt: now() });
      events.push({ type: "node-skipped", nodeId, payload: {} });
    }
    if (changes.length > 0) void this.emit(run, events, undefined, changes).catch((error) => this.crash(run, error));
    for (const nodeId of decision.start) {
      run.statuses[nodeId] = "running";
      run.inFlight += 1;
      void this.executeNode(run, nodeId).finally(() => {
        run.inFlight -= 1;
        this.pump(run);
      });
    }
    if (decision.finished && run.inFlight === 0) {
      // A failure the run went on from (continue, an error path) is not the run's: only those that stopped it are.
      const failedNodes = Object.entries(run.statuses)
        .filter(([id, status]) => status === "failed" && (run.failures[id] ?? "stop") === "stop")
        .map(([id]) => id);
      if (failedNodes.length > 0) {
        // What never got to run because the run stopped reads as skipped, not as still pending.
        const notRun = run.graph.nodeIds.filter((id) => (run.statuses[id] ?? "pending") === "pending");
        for (const nodeId of notRun) run.skipped(nodeId);
        const steps: StepChange[] = notRun.map((nodeId) => ({ nodeId, status: "skipped", finishedAt: now() }));
        const skippedEvents: PendingEvent[] = notRun.map((nodeId) => ({ type: "node-skipped", nodeId, payload: { reason: "the run stopped" } }));
        if (steps.length > 0) void this.emit(run, skippedEvents, undefined, steps).catch((error) => this.crash(run, error));
        void this.finish(run, "failed", { error: describeFailures(run, failedNodes, this.options.pool()) });
      } else {
        void this.finish(run, "succeeded", { output: runOutput(run) });
      }
    }
  }

  /**
   * Runs a node's attempts until one succeeds, one fails with an error not
   * worth trying again, or its retry policy has none left. Between attempts
   * the step is stored as `retrying` with when the next is due, so a restart
   * waits out the rest of the delay and counts on. The last failure is the
   * node's: it stops the run, or the run goes on past it (continue, an error path).
   */
  private async executeNode(run: ActiveRun, nodeId: string): Promise<void> {
    const node = run.nodes.get(nodeId)!;
    const policy = run.policyOf(nodeId);
    // A step let go while it waited (parked) goes on with the same attempt, already announced. It stays stored as waiting
    // until its decision is announced (announceApproval), in the same commit that says it runs, so a kill in between leaves
    // it waiting (replayed again), never running with its effect unannounced.
    let continuing = run.storedWaiting.has(nodeId);
    let attempt = continuing ? Math.max(1, run.attempts[nodeId] ?? 1) : (run.attempts[nodeId] ?? 0) + 1;
    const due = run.retryDue.get(nodeId);
    if (due !== undefined) {
      run.retryDue.delete(nodeId);
      run.statuses[nodeId] = "retrying";
      if (!(await this.waitForRetry(run, nodeId, due, Date.now()))) return;
      run.statuses[nodeId] = "running";
    }
    for (;; attempt += 1) {
      run.attempts[nodeId] = attempt;
      run.statuses[nodeId] = "running";
      const started = Date.now();
      try {
        if (!continuing) {
          const stored = this.emit(
            run,
            [{ type: "node-started", nodeId, payload: { kind: node.kind, attempt, ...(policy.maxAttempts > 1 ? { maxAttempts: policy.maxAttempts } : {}), ...toolOf(node) } }],
            undefined,
            [{ nodeId, status: "running", attempt, startedAt: now(), finishedAt: null, error: null, errorKind: null, retryAt: null }],
          );
          // A step that may change the world starts once its start is stored: a restart then knows it may have
          // happened (at most once). One that can simply run again starts at once; the run's writer stores its start
          // before its end (usually in the same transaction), and a chain of such steps waits on no commit between them.
          if (this.startsBeforeStored(node)) stored.catch((error: unknown) => this.crash(run, error));
          else await stored;
        }
        continuing = false;
        const { output, input } = await this.runAttempt(run, node, policy);
        run.succeeded(nodeId, output);
        // Not awaited: what this unblocks is written after it by the run's writer, usually in the same
        // transaction, and a next step's tool starts only once its own node-started (so this too) is durable.
        this.emit(
          run,
          [{ type: "node-succeeded", nodeId, payload: { output, durationMs: Date.now() - started } }],
          undefined,
          [{ nodeId, status: "succeeded", input, output, finishedAt: now() }],
        ).catch((error: unknown) => this.crash(run, error));
        return;
      } catch (error) {
        // Let go while waiting for a person: the step stays as stored (waiting); a later drive replays it.
        if (error instanceof ParkedRun || run.parked) return;
        const failure = describeFailure(error);
        if (failure.kind === "internal") this.options.log?.(`Node ${nodeId} of run ${run.runId} crashed`, error);
        const input = error instanceof StepFailure && error.input !== undefined ? { input: error.input } : {};
        try {
          if (failure.retryable && attempt < policy.maxAttempts && !run.cancelled) {
            const delayMs = retryDelayMs(policy, attempt);
            const retryAt = this.clock.now() + delayMs;
            run.statuses[nodeId] = "retrying";
            await this.emit(
              run,
              [
                {
                  type: "node-retry-scheduled",
                  nodeId,
                  payload: { attempt, maxAttempts: policy.maxAttempts, error: failure.message, errorKind: failure.kind, delayMs, retryAt: new Date(retryAt).toISOString() },
                },
              ],
              undefined,
              [{ nodeId, status: "retrying", error: failure.message, errorKind: failure.kind, retryAt: new Date(retryAt).toISOString(), finishedAt: now(), ...input }],
            );
            if (await this.waitForRetry(run, nodeId, retryAt, started)) continue;
            return;
          }
          run.failed(nodeId, failure.message, failure.kind);
          await this.emit(run, [{ type: "node-failed", nodeId, payload: failedPayload(run, nodeId, Date.now() - started) }], undefined, [
            { nodeId, status: "failed", error: failure.message, errorKind: failure.kind, retryAt: null, finishedAt: now(), ...input },
          ]);
        } catch (persistError) {
          await this.crash(run, persistError);
        }
        return;
      }
    }
  }

  /**
   * Waits until a retrying step's next attempt is due: true when it may
   * start. A cancel fails the step (as cancelled); a shutdown or a lost claim
   * lets it go as stored (retrying), to be driven on elsewhere: false.
   */
  private async waitForRetry(run: ActiveRun, nodeId: string, dueAt: number, started: number): Promise<boolean> {
    const release = new AbortController();
    run.retryWaits.set(nodeId, release);
    try {
      if (run.handingBack || run.parked) return false;
      await this.clock.sleep(dueAt - this.clock.now(), AbortSignal.any([release.signal, run.abort.signal])).catch(() => undefined);
      if (!run.cancelled) return !(run.handingBack || run.parked || run.crashed !== undefined);
      if (run.parked || run.crashed !== undefined) return false;
      const cancelled = new RunCancelled();
      run.failed(nodeId, cancelled.message, "cancelled");
      await this.emit(run, [{ type: "node-failed", nodeId, payload: failedPayload(run, nodeId, Date.now() - started) }], undefined, [
        { nodeId, status: "failed", error: cancelled.message, errorKind: "cancelled", retryAt: null, finishedAt: now() },
      ]).catch((error: unknown) => this.crash(run, error));
      return false;
    } finally {
      run.retryWaits.delete(nodeId);
    }
  }

  /**
   * One attempt, within the step's time limit when it has one: past it, the
   * attempt's tools are told to stop (their signal aborts) and the attempt
   * fails as a time-out at once, whatever the tool does with the signal. The
   * limit stands still while the step waits for a person.
   */
  private async runAttempt(run: ActiveRun, node: WorkflowNode, policy: ExecutionPolicy): Promise<StepResult> {
    if (policy.timeoutMs === null) return this.runNode(run, node, run.abort.signal);
    const limit = policy.timeoutMs;
    const attempt = new AbortController();
    const deadline = new StepDeadline(this.clock, limit, () => {
      const timedOut = new StepTimedOut(limit);
      attempt.abort(timedOut);
      return timedOut;
    });
    run.deadlines.set(node.id, deadline);
    try {
      const work = this.runNode(run, node, AbortSignal.any([run.abort.signal, attempt.signal]));
      // Once the limit won, what the stopped call still answers is nobody's business.
      work.catch(() => undefined);
      return await Promise.race([work, deadline.expired]);
    } finally {
      deadline.stop();
      if (run.deadlines.get(node.id) === deadline) run.deadlines.delete(node.id);
    }
  }

  /** Runs one node through its kind's executor (nodes/<kind>/server.ts, by the table in nodes/server.ts). */
  private async runNode(run: ActiveRun, node: WorkflowNode, signal: AbortSignal): Promise<StepResult> {
    return serverOf(node).execute(node, this.executionContext(run, node, signal));
  }

  /** What an executor may use of the run and the engine; each callback acts for this node only. */
  private executionContext(run: ActiveRun, node: WorkflowNode, signal: AbortSignal): NodeExecutionContext {
    return {
      runId: run.runId,
      workflowId: run.workflowId,
      inputs: run.inputs,
      trigger: run.trigger,
      triggerPayload: run.triggerPayload,
      scope: () => run.scope(),
      store: this.options.store,
      pool: () => this.options.pool(),
      secrets: this.options.secrets,
      workingDirectory: this.workingDirectory,
      mode: run.definition.mode,
      guardrails: run.definition.guardrails,
      planApproved: run.planApproved,
      grants: run.grants,
      persistGrant: (grant) => this.options.store.addGrant(run.workflowId, grant, null),
      lock: run.lock,
      signal,
      cancelled: () => run.cancelled,
      waitFor: (request) => this.awaitApproval(run, request),
      attempt: run.attempts[node.id] ?? 1,
      ...(this.options.childRuns ? { childRuns: this.options.childRuns } : {}),
      waitForChildRun: (childRunId) => this.awaitChildRun(run, node.id, childRunId),
      emit: (type, payload) => this.emit(run, [{ type, nodeId: node.id, payload } as PendingEvent]),
      log: (message, error) => this.options.log?.(message, error),
      attachedTools: () =>
        (run.graph.attachments.get(node.id) ?? []).flatMap((id) => {
          const each = run.nodes.get(id);
          return each?.kind === "tool" ? [each] : [];
        }),
      ...(this.options.agentModel ? { agentModel: this.options.agentModel } : {}),
    };
  }

  /**
   * Tool nodes attached to an agent are not steps (the scheduler never sees
   * them); their records are settled at once as skipped with reason
   * "attached", so a finished run has nothing left pending.
   */
  private async settleBeforeStart(run: ActiveRun): Promise<void> {
    const pending = (id: string) => (run.statuses[id] ?? "pending") === "pending";
    const attached = [...run.graph.attachedTo].filter(([id]) => pending(id));
    // A run starts at one entry: its trigger node, or the run inputs (and the other steps nothing leads to) when a person,
    // the CLI or MCP started it. The other entries are skipped, and with them whatever only they lead to.
    const otherEntries = run.definition.nodes.filter((node) => {
      const starts = startsRunsOf(node.kind);
      if (!starts || !pending(node.id) || node.id === run.trigger.nodeId) return false;
      return run.trigger.nodeId !== null || starts === "on-trigger";
    });
    // A loop's body is not a step of this run: each item runs it in a run of its own.
    const inLoops = [...enclosingLoops(run.definition)].filter(([id]) => pending(id) && !run.graph.attachedTo.has(id));
    if (attached.length === 0 && otherEntries.length === 0 && inLoops.length === 0) return;
    const startedBy = RUN_TRIGGER_LABELS[run.trigger.kind].toLowerCase();
    for (const [id] of attached) run.skipped(id);
    for (const node of otherEntries) run.skipped(node.id);
    for (const [id] of inLoops) run.skipped(id);
    await this.emit(
      run,
      [
        ...attached.map(([nodeId, agents]): PendingEvent => ({ type: "node-skipped", nodeId, payload: { reason: "attached", agent: agents[0] ?? null } })),
        ...otherEntries.map((node): PendingEvent => ({ type: "node-skipped", nodeId: node.id, payload: { reason: `this run was started by the ${startedBy}` } })),
        ...inLoops.map(([nodeId, loopId]): PendingEvent => ({ type: "node-skipped", nodeId, payload: { reason: "in-loop", loop: loopId } })),
      ],
      undefined,
      [...attached.map(([nodeId]) => nodeId), ...otherEntries.map((node) => node.id), ...inLoops.map(([nodeId]) => nodeId)].map((nodeId) => ({ nodeId, status: "skipped", finishedAt: now() })),
    );
  }

  /**
   * Finds or creates the stored approval and waits for its decision. While it
   * waits, the node shows `waiting` and the run `awaiting_input`.
   */
  private awaitApproval(run: ActiveRun, request: ApprovalRequest): Promise<ApprovalRecord> {
    return this.approvals.await(this.waitingRun(run), request);
  }

  /**
   * Waits for a child run a Sub-workflow step started. Its end may be stored
   * already (a replay); otherwise the step is stored as waiting, and counts as
   * waiting for the park rule: with workers the run is let go, and the child's
   * end drives it on (ChildRuns.finished), when the replayed step finds the
   * stored outcome here.
   */
  private async awaitChildRun(run: ActiveRun, nodeId: string, childRunId: string): Promise<ChildRunOutcome> {
    const childRuns = this.options.childRuns;
    if (!childRuns) throw new Error("This engine cannot run Sub-workflow steps (no childRuns option)");
    // Before the stored outcome is read: an end recorded in between still wakes it.
    const wait = this.childWaits.register(run.runId, childRunId);
    let counted = false;
    try {
      if (run.cancelled) throw new RunCancelled();
      if (run.parked || run.handingBack) throw new ParkedRun();
      const stored = await childRuns.outcome(childRunId);
      if (stored) return stored;
      // A For each step waits for several items at once: it counts as one step waiting, from its first wait to its last.
      const waits = (run.childWaitsOf.get(nodeId) ?? 0) + 1;
      run.childWaitsOf.set(nodeId, waits);
      counted = true;
      if (waits === 1) {
        run.statuses[nodeId] = "waiting";
        run.storedWaiting.delete(nodeId);
        run.waiting += 1;
        await this.emit(run, [], undefined, [{ nodeId, status: "waiting" }]);
      }
      this.parkIfAllWaiting(run);
      return await wait.promise;
    } finally {
      wait.dispose();
      if (counted) {
        const left = (run.childWaitsOf.get(nodeId) ?? 1) - 1;
        run.childWaitsOf.set(nodeId, left);
        if (left === 0) {
          run.waiting = Math.max(0, run.waiting - 1);
          if (run.statuses[nodeId] === "waiting") run.statuses[nodeId] = "running";
        }
      }
    }
  }

  /** The run as the approval waits see it: what they announce is stored with the state it changes. */
  private waitingRun(run: ActiveRun): WaitingRun {
    return {
      runId: run.runId,
      get cancelled() {
        return run.cancelled;
      },
      announced: run.announced,
      stepOf: (nodeId) => (run.nodes.has(nodeId) ? nodeId : null),
      announce: (announcement) => this.announceApproval(run, announcement),
    };
  }

  private announceApproval(run: ActiveRun, announcement: ApprovalAnnouncement): Promise<void> {
    // Remembered, so a later attempt of the step that finds the same approval (nothing changed) announces it no more.
    for (const event of announcement.events) (event.type === "approval-requested" ? run.announced.requested : run.announced.decided).add(event.payload.approval.id);
    // A step's time limit stands still while a person decides.
    if (announcement.change === "waiting" && announcement.stepId) run.deadlines.get(announcement.stepId)?.pause();
    if (announcement.change === "resumed" && announcement.stepId) run.deadlines.get(announcement.stepId)?.resume();
    switch (announcement.change) {
      case "none": {
        const resumed: StepChange[] = announcement.events.flatMap((event) =>
          event.type === "approval-decided" && event.nodeId && run.storedWaiting.delete(event.nodeId) ? [{ nodeId: event.nodeId, status: "running" as const }] : [],
        );
        return this.emit(run, announcement.events, undefined, resumed);
      }
      case "waiting": {
        const { stepId, approvalId, events } = announcement;
        if (stepId) run.statuses[stepId] = "waiting";
        if (stepId) run.storedWaiting.delete(stepId);
        run.waiting += 1;
        return this.emit(
          run,
          [...events, { type: "run-awaiting-input", nodeId: null, payload: { approvalId } }],
          { status: "awaiting_input" },
          stepId ? [{ nodeId: stepId, status: "waiting" }] : [],
        ).then(() => this.parkIfAllWaiting(run));
      }
      case "resumed": {
        const { stepId, othersWaiting, events } = announcement;
        run.waiting = Math.max(0, run.waiting - 1);
        if (stepId) run.statuses[stepId] = "running";
        return this.emit(run, events, othersWaiting ? undefined : { status: "running" }, stepId ? [{ nodeId: stepId, status: "running" }] : []);
      }
    }
  }

  private async finish(run: ActiveRun, status: RunStatus, result: { output?: unknown; error?: string }): Promise<void> {
    if (run.finished) return;
    run.finished = true;
    const error = result.error ?? null;
    const errorWorkflowRunId = status === "failed" ? await this.startErrorWorkflow(run, error ?? "The run failed.") : null;
    // Before its end is recorded, so a restart in between records it again and cancels them then.
    if (status === "cancelled") await this.cancelChildren(run);
    const stopping = stoppingFailure(run);
    const errorKind = status === "failed" ? (stopping ? (run.errorKinds[stopping] ?? "failed") : "failed") : status === "cancelled" ? "cancelled" : null;
    const event: PendingEvent =
      status === "succeeded"
        ? { type: "run-succeeded", nodeId: null, payload: { output: result.output ?? null } }
        : status === "cancelled"
          ? { type: "run-cancelled", nodeId: null, payload: { error, ...(run.cancelledBy ? { cancelledBy: run.cancelledBy } : {}) } }
          : { type: "run-failed", nodeId: null, payload: { error, ...(errorWorkflowRunId ? { errorWorkflowRunId } : {}) } };
    try {
      await this.emit(run, [event], {
        status,
        output: result.output ?? null,
        error: result.error ?? null,
        errorKind,
        finishedAt: now(),
      });
      // A step of a run here that called this one goes on; one driven elsewhere hears through childRuns.
      const outcome: ChildRunOutcome =
        status === "succeeded" ? { status, output: result.output ?? null } : { status: status === "cancelled" ? "cancelled" : "failed", error: error ?? "The run failed.", errorKind };
      this.childWaits.finished(run.runId, outcome);
      if (run.source?.kind === "sub-workflow" || run.source?.kind === "for-each") {
        // Not heard: the drive fails (crashed), so its job runs again and the next drive of the finished run says it again.
        await this.options.childRuns?.finished(run.runId).catch((error: unknown) => {
          this.options.log?.(`Could not tell the run that called run ${run.runId} that it finished`, error);
          run.crashed = error;
        });
      }
    } catch (error) {
      this.options.log?.(`Could not record the end of run ${run.runId}`, error);
    } finally {
      this.active.delete(run.runId);
      run.resolveSettled();
    }
  }

  /**
   * Starts the error workflow of a run that failed, before its failure is
   * recorded (so a restart in between records it again and finds the run
   * started, rather than losing it): its id, or null. A run an error workflow
   * started never starts one itself, so a failing error workflow cannot loop.
   */
  private async startErrorWorkflow(run: ActiveRun, runError: string): Promise<string | null> {
    const errorWorkflowId = run.definition.errorWorkflowId;
    // An item's failure is its loop's to handle (it stops the loop, or takes its place): the loop's run starts the error workflow, once.
    if (!errorWorkflowId || !this.options.startErrorWorkflow || run.trigger.kind === "error-workflow" || run.loop) return null;
    // A test run from the editor fails in front of the person trying the step: nobody needs telling elsewhere.
    if (run.trigger.testOf) return null;
    const nodeId = stoppingFailure(run);
    try {
      return await this.options.startErrorWorkflow({
        runId: run.runId,
        workflowId: run.workflowId,
        workflowName: run.definition.name,
        errorWorkflowId,
        nodeId,
        error: nodeId ? (run.errors[nodeId] ?? runError) : runError,
        errorKind: nodeId ? (run.errorKinds[nodeId] ?? null) : null,
      });
    } catch (error) {
      this.options.log?.(`Could not start the error workflow of run ${run.runId}`, error);
      return null;
    }
  }

  /** A cancelled run's Sub-workflow steps' runs are cancelled with it. */
  private async cancelChildren(run: ActiveRun): Promise<void> {
    if (!this.options.childRuns || !run.definition.nodes.some((node) => node.kind === "subworkflow" || node.kind === "foreach")) return;
    try {
      await this.options.childRuns.cancelChildren(run.runId, run.cancelledBy);
    } catch (error) {
      this.options.log?.(`Could not cancel the runs called by run ${run.runId}`, error);
    }
  }

  /**
   * A parked or handed-back run leaves this process: nothing more is written,
   * but what its last steps wrote (a success is emitted without waiting) is
   * durable before the drive says it is done, so the next drive finds those
   * steps finished rather than cut off.
   */
  private leave(run: ActiveRun): void {
    run.finished = true;
    void run.writer.idle().then(() => {
      this.active.delete(run.runId);
      run.resolveSettled();
    });
  }

  /** An infrastructure failure (the database went away): stop the run here; a restart resumes it. */
  private async crash(run: ActiveRun, error: unknown): Promise<void> {
    this.options.log?.(`Run ${run.runId} stopped on an internal error; it resumes at the next start`, error);
    run.crashed = error;
    run.finished = true;
    run.abort.abort();
    this.active.delete(run.runId);
    run.resolveSettled();
  }

  /** Persists events (with the step and run changes they announce), then publishes them. */
  private async emit(run: ActiveRun, pending: PendingEvent[], runChange?: RunChange, steps: StepChange[] = []): Promise<void> {
    // A parked or crashed run is another drive's to record: a step still finishing here writes nothing.
    if (run.parked || run.crashed !== undefined) return;
    const createdAt = now();
    const events: RunEvent[] = pending.map((event) => ({ ...event, runId: run.runId, seq: ++run.seq, createdAt }));
    await run.writer.write({ ...(runChange ? { run: runChange } : {}), steps, events, ...(run.driver ? { driver: run.driver } : {}) });
    for (const event of events) this.options.bus.publish(event);
  }
}

/**
 * How a run's story begins: run-started (naming the run it repeats, if any),
 * then each step it kept from that run, so the timeline and a live view show
 * them carried over before anything runs.
 */
function startEvents(run: ActiveRun, options: { withTrigger: boolean }): PendingEvent[] {
  const started: PendingEvent = {
    type: "run-started",
    nodeId: null,
    payload: { inputs: run.inputs, ...(options.withTrigger ? { trigger: run.trigger } : {}), ...(run.source ? { source: run.source } : {}) },
  };
  // In the workflow's order, whatever order the steps were read in.
  const carried = run.definition.nodes.flatMap(({ id: nodeId }): PendingEvent[] => {
    const from = run.carried.get(nodeId);
    const output = run.outputs[nodeId];
    return from && output ? [{ type: "node-carried-over", nodeId, payload: { fromRunId: from.fromRunId, ...(from.as ? { as: from.as } : {}), output } }] : [];
  });
  const excluded = run.definition.nodes.flatMap(({ id: nodeId }): PendingEvent[] =>
    run.excluded.has(nodeId) ? [{ type: "node-skipped", nodeId, payload: { reason: "not part of this test run" } }] : [],
  );
  return [started, ...carried, ...excluded];
}

/** The first node whose failure stopped the run (the error workflow's `nodeId`, the run's error kind); null when none did. */
function stoppingFailure(run: ActiveRun): string | null {
  return run.graph.nodeIds.find((id) => run.statuses[id] === "failed" && (run.failures[id] ?? "stop") === "stop") ?? null;
}

/** A node-started event's tool and operation, for a tool node. */
function toolOf(node: WorkflowNode): { tool?: string; operation?: string | null } {
  return node.kind === "tool" ? { tool: node.tool, operation: node.operation } : {};
}

/** A failed node's node-failed payload: its error and kind, and how the run goes on past it, if it does. */
function failedPayload(run: ActiveRun, nodeId: string, durationMs: number): Extract<PendingEvent, { type: "node-failed" }>["payload"] {
  const action = run.failures[nodeId] ?? "stop";
  return {
    error: run.errors[nodeId] ?? "The step failed.",
    durationMs,
    errorKind: run.errorKinds[nodeId] ?? "failed",
    ...(action === "stop" ? {} : { handledBy: action }),
  };
}

/** What a step's failure was, as its record says it, and whether its retry policy may try it again. */
function describeFailure(error: unknown): { message: string; kind: StepErrorKind; retryable: boolean } {
  if (error instanceof StepTimedOut) return { message: error.message, kind: "timeout", retryable: true };
  if (error instanceof StepFailure) return { message: error.message, kind: error.kind, retryable: error.retryable };
  if (error instanceof RunCancelled) return { message: error.message, kind: "cancelled", retryable: false };
  if (error instanceof TemplateError) return { message: error.message, kind: "template", retryable: false };
  return { message: `Internal error: ${error instanceof Error ? error.message : String(error)}`, kind: "internal", retryable: false };
}

function outcomeOf(run: ActiveRun): DriveOutcome {
  if (run.parked) return "parked";
  return run.handingBack ? "handed-back" : "finished";
}

/** An event as the engine emits it; `emit` numbers and stores it. */
type PendingEvent = NewRunEvent;

function now(): string {
  return new Date().toISOString();
}

/** A run's output: its output node's value, or each output node's by label when there are several. */
function runOutput(run: ActiveRun): unknown {
  // An item's value is its body's last step's: the loop collects them in order.
  if (run.loop) return loopItemOutput(run.definition, Object.fromEntries(run.definition.nodes.filter((node) => run.statuses[node.id] === "succeeded").map((node) => [node.id, run.outputs[node.id]])));
  const outputs = run.definition.nodes.filter((node) => node.kind === "output" && run.statuses[node.id] === "succeeded");
  const valueOf = (id: string) => {
    const output = run.outputs[id];
    return output?.data !== undefined ? output.data : (output?.content ?? null);
  };
  if (outputs.length === 0) return null;
  if (outputs.length === 1) return valueOf(outputs[0]!.id);
  return Object.fromEntries(outputs.map((node) => [node.label ?? node.id, valueOf(node.id)]));
}

/** "Write a File failed: …": what a person reads as the run's error, naming nodes as the canvas does. */
function describeFailures(run: ActiveRun, failedNodes: readonly string[], pool: ToolPool): string {
  return failedNodes
    .map((nodeId) => {
      const node = run.nodes.get(nodeId);
      const name = node?.label ?? (node?.kind === "tool" ? (pool.get(node.tool)?.title ?? node.tool) : nodeId);
      const firstLine = (run.errors[nodeId] ?? "").split("\n")[0] ?? "";
      return `${name} failed${firstLine ? `: ${firstLine}` : "."}`;
    })
    .join(" ");
}

/** The plan a person approves in plan mode: each step in order, with what it will be given. */
function describePlan(definition: WorkflowDefinition, pool: ToolPool, runs: (nodeId: string) => boolean): string {
  const lines = definition.nodes.flatMap((node, index): string[] => {
    if (!runs(node.id)) return [];
    // A called workflow runs under its own mode and guardrails: the plan says it is called, and with what.
    if (node.kind === "subworkflow") {
      const version = node.version === "published" ? "its published version" : `version ${node.version}`;
      return [`${index + 1}. ${node.label ?? "Sub-workflow"}: calls the workflow ${node.workflowId} (${version}) with ${JSON.stringify(node.inputs)}`];
    }
    // A loop's body is listed below it, as the steps each item runs.
    if (node.kind === "foreach") return [`${index + 1}. ${node.label ?? "For each"}: runs the steps inside it once per item of ${node.list}, ${node.concurrency} at a time`];
    if (node.kind !== "tool") return [];
    const tool = pool.get(node.tool);
    const operation = node.operation && tool?.operations?.[node.operation] ? ` — ${tool.operations[node.operation]!.title}` : "";
    const args = tool ? maskSecretInputs(tool, node.arguments) : node.arguments;
    return [`${index + 1}. ${node.label ?? tool?.title ?? node.tool}${operation}: ${JSON.stringify(args)}`];
  });
  return [`Plan for "${definition.name}":`, ...lines].join("\n");
}
