import type { ApprovalSummary } from "@/lib/contracts/approval";
import type { RunEvent } from "@/lib/contracts/run-event";
import type { CarriedAs, NodeStatus, RunStatus, StepOutput, StepRecord } from "@/lib/contracts/run";
import type { StepErrorKind } from "@/lib/contracts/execution-settings";
import { applyAgentEvent, isAgentEvent, type AgentActivity } from "./agent-activity";
import { shortRunId } from "./run-lineage";

/**
 * What the run view shows, kept up to date by applying the run's events one
 * by one. Pure: no I/O, no clock; the same events give the same state.
 */
export interface RunViewState {
  status: RunStatus;
  error: string | null;
  output: unknown;
  finishedAt: string | null;
  /** The sequence number of the last event applied; anything at or below it is a repeat. */
  lastSeq: number;
  steps: Readonly<Record<string, StepView>>;
  /** Approvals in the order they were asked for. */
  approvals: readonly ApprovalView[];
  /** The most recent events, oldest first, for the timeline (at most `TIMELINE_LIMIT`); streamed model text is in the agent's panel, not here. */
  timeline: readonly RunEvent[];
  /** The run of the error workflow its failure started, once it is known. */
  errorWorkflowRunId: string | null;
}

/** A step's status as the run view shows it: the scheduler's, or `attached` for a tool an agent calls (never a step of its own). */
export type StepViewStatus = NodeStatus | "attached";

export interface StepView {
  status: StepViewStatus;
  /** The latest progress or notification message while it runs. */
  progress: string | null;
  output: StepOutput | null;
  error: string | null;
  /** What kind of failure `error` is. */
  errorKind: StepErrorKind | null;
  /** The run went on past its failure: the steps after it read the error, or its error path was taken. */
  handledBy: "continue" | "error-edge" | null;
  /** The resolved arguments; `undefined` = not known yet (the stream does not carry them). */
  input: unknown;
  attempt: number;
  /** How many attempts it may take in all, when more than one (from its node-started events); null when not known. */
  maxAttempts: number | null;
  /** While it is retrying: when its next attempt is due. */
  retryAt: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  /** For agent steps: the streamed text and each tool call. */
  agent?: AgentActivity;
  /** For a tool attached to an agent: the agent's node id (the tool is not a step of its own). */
  attachedTo?: string;
  /** The run whose result this step kept (a retry from the failed step; a pin's source run): it did not run in this run. */
  carriedFrom: string | null;
  /** For a Sub-workflow step: the run of the called workflow its latest attempt started. */
  childRun: { id: string; workflowName: string } | null;
  /** A test run kept it from the node's pin or from typed values instead of running it. */
  carriedAs: CarriedAs | null;
  /** For a For each step: its latest attempt's item runs so far, by item index, and how many items there are. */
  loopItems: { count: number; runs: readonly LoopItemView[] } | null;
}

/** One item of a For each step as its panel lists it: its run, and how it is doing. */
export interface LoopItemView {
  item: number;
  runId: string;
  status: "running" | "succeeded" | "failed" | "cancelled";
}

/** An approval as the run view knows it: from the run's record or from an event's summary. */
/**
 * An approval as its run's events tell it; `approvalsSoFar`: the approvals counted toward one that needs several
 * people; `escalated`: its deadline passed it to the escalation's approvers; `notices`: how many notifications of it
 * the events told of.
 */
export type ApprovalView = ApprovalSummary & { approvalsSoFar?: number; escalated?: boolean; notices?: number };

/** Older timeline entries are dropped past this, so a run of thousands of steps stays light. */
export const TIMELINE_LIMIT = 1000;

/** The fields of a RunDetail the view starts from (kept structural so tests need no database). */
export interface RunSnapshot {
  status: RunStatus;
  error: string | null;
  output: unknown;
  finishedAt: string | null;
  lastSeq: number;
  steps: readonly StepRecord[];
  approvals: readonly ApprovalView[];
  errorWorkflowRun?: { id: string } | null;
  /** The runs its Sub-workflow steps called, in the order they started. */
  childRuns?: readonly { id: string; nodeId: string; workflowName: string; kind?: "sub-workflow" | "for-each"; attempt?: number; item?: number; status?: RunStatus }[];
}

export function emptyStep(): StepView {
  return {
    status: "pending",
    progress: null,
    output: null,
    error: null,
    errorKind: null,
    handledBy: null,
    input: undefined,
    attempt: 0,
    maxAttempts: null,
    retryAt: null,
    startedAt: null,
    finishedAt: null,
    carriedFrom: null,
    childRun: null,
    carriedAs: null,
    loopItems: null,
  };
}

/** The state a run view opens with: the run as stored, and the events that led to it (for the timeline). */
export function initialRunViewState(run: RunSnapshot, history: readonly RunEvent[] = []): RunViewState {
  const steps: Record<string, StepView> = {};
  for (const step of run.steps) {
    steps[step.nodeId] = {
      status: step.status,
      progress: null,
      output: step.output,
      error: step.error,
      errorKind: step.errorKind,
      handledBy: null,
      input: step.input,
      attempt: step.attempt,
      maxAttempts: null,
      retryAt: step.status === "retrying" ? step.retryAt : null,
      startedAt: step.startedAt,
      finishedAt: step.finishedAt,
      carriedFrom: step.carriedFromRunId,
      childRun: null,
      carriedAs: step.carriedAs,
      loopItems: null,
    };
  }
  // Only events the snapshot already reflects: later ones arrive through the stream.
  const known = history.filter((event) => event.seq <= run.lastSeq);
  // How many items each For each step's latest start said its list holds: only its items' start events say so.
  const loopCounts = new Map<string, number>();
  // A running step's last progress message, and an agent's text and calls, are only in the events.
  for (const event of known) {
    const step = event.nodeId ? steps[event.nodeId] : undefined;
    if (!step) continue;
    if (event.type === "child-run-started" && event.payload.count !== undefined) loopCounts.set(event.nodeId!, event.payload.count);
    if (event.type === "node-started") {
      step.progress = null;
      delete step.agent;
      step.maxAttempts = event.payload.maxAttempts ?? null;
    }
    if (event.type === "node-retry-scheduled") step.maxAttempts = event.payload.maxAttempts;
    if (event.type === "node-failed") step.handledBy = event.payload.handledBy ?? null;
    if (isAgentEvent(event)) step.agent = applyAgentEvent(step.agent, event);
    if (event.type === "node-skipped" && event.payload.reason === "attached" && typeof event.payload.agent === "string") {
      step.attachedTo = event.payload.agent;
      step.status = "attached";
    }
    const message = progressMessage(event);
    if (message !== null) step.progress = message;
  }
  // After the events (a node-started clears progress). In the order they started: a step's latest attempt's run is the one it shows.
  for (const child of run.childRuns ?? []) {
    const step = steps[child.nodeId];
    if (!step) continue;
    // A step whose latest attempt started a run waits for it, as its child-run-started event says on the stream. The
    // engine stores the step as waiting in a later commit than that event: a page read in between must not show it running.
    const ofLatestAttempt = child.attempt === undefined || child.attempt === step.attempt;
    if (ofLatestAttempt && step.status === "running") step.status = "waiting";
    if (child.kind === "for-each") {
      // Only the latest attempt's items; the count comes with the items' start events, else from what is known.
      if (child.attempt !== undefined && child.attempt !== step.attempt) continue;
      const status: LoopItemView["status"] = child.status === "succeeded" || child.status === "failed" || child.status === "cancelled" ? child.status : "running";
      const runs = [...(step.loopItems?.runs ?? []), { item: child.item ?? 0, runId: child.id, status }];
      const count = loopCounts.get(child.nodeId) ?? countOfLoop(step.input) ?? 0;
      step.loopItems = { count: Math.max(step.loopItems?.count ?? 0, count, runs.length), runs };
      continue;
    }
    step.childRun = { id: child.id, workflowName: child.workflowName };
    if (step.status === "waiting") step.progress = waitsFor(child.workflowName, child.id);
  }
  const timeline = known.filter(belongsInTimeline).slice(-TIMELINE_LIMIT);
  return {
    status: run.status,
    error: run.error,
    output: run.output,
    finishedAt: run.finishedAt,
    lastSeq: run.lastSeq,
    steps,
    approvals: run.approvals.map((approval) => ({ ...approval, arguments: { ...approval.arguments } })),
    timeline,
    errorWorkflowRunId: run.errorWorkflowRun?.id ?? null,
  };
}

/**
 * Applies one event. An event at or below `lastSeq` was already applied (a
 * reconnecting EventSource resends from its Last-Event-ID) and changes
 * nothing: the same state object comes back.
 */
export function applyRunEvent(state: RunViewState, event: RunEvent): RunViewState {
  if (event.seq <= state.lastSeq) return state;
  const timeline = !belongsInTimeline(event) ? state.timeline : appendToTimeline(state.timeline, event);
  const next: RunViewState = { ...state, lastSeq: event.seq, timeline };
  switch (event.type) {
    case "run-started":
    case "run-resumed":
      return { ...next, status: "running" };
    case "run-awaiting-input":
      return { ...next, status: "awaiting_input" };
    // A finished run waits for nobody. A cancelled run's approvals each arrive as approval-decided (cancelled) first;
    // withdrawing what is still open covers runs recorded before the engine said so.
    case "run-succeeded":
      return { ...withdrawApprovals(next, null), status: "succeeded", output: event.payload.output ?? null, error: null, finishedAt: event.createdAt };
    case "run-failed":
      return {
        ...withdrawApprovals(next, null),
        status: "failed",
        error: stringOr(event.payload.error, "The run failed."),
        finishedAt: event.createdAt,
        errorWorkflowRunId: event.payload.errorWorkflowRunId ?? next.errorWorkflowRunId,
      };
    case "run-cancelled":
      return { ...withdrawApprovals(next, null), status: "cancelled", error: stringOr(event.payload.error, "Cancelled."), finishedAt: event.createdAt };
    case "node-started":
      return updateStep(next, event.nodeId, () => ({
        ...emptyStep(),
        status: "running",
        attempt: event.payload.attempt,
        maxAttempts: event.payload.maxAttempts ?? null,
        startedAt: event.createdAt,
      }));
    case "node-retry-scheduled":
      return updateStep(next, event.nodeId, (step) => ({
        ...step,
        status: "retrying",
        progress: null,
        error: event.payload.error,
        errorKind: event.payload.errorKind,
        attempt: event.payload.attempt,
        maxAttempts: event.payload.maxAttempts,
        retryAt: event.payload.retryAt,
        finishedAt: event.createdAt,
      }));
    case "node-progress":
    case "node-notified": {
      const message = progressMessage(event);
      const finishedItem = event.type === "node-progress" && "type" in event.payload && event.payload.type === "loop-item" ? event.payload : null;
      if (finishedItem) {
        // An item ended: its entry in the step's list says how.
        return updateStep(next, event.nodeId, (step) => ({
          ...step,
          progress: message ?? step.progress,
          loopItems: step.loopItems ? { ...step.loopItems, runs: step.loopItems.runs.map((each) => (each.item === finishedItem.item ? { ...each, status: finishedItem.status } : each)) } : step.loopItems,
        }));
      }
      return message === null ? next : updateStep(next, event.nodeId, (step) => ({ ...step, progress: message }));
    }
    case "node-succeeded":
      return updateStep(next, event.nodeId, (step) => ({
        ...step,
        status: "succeeded",
        output: event.payload.output,
        error: null,
        // Recorded with the step, not carried by the event: unknown until fetched.
        input: undefined,
        finishedAt: event.createdAt,
      }));
    // The step now waits for the run it started (stored so by the engine with this event's commit or the next).
    case "child-run-started": {
      const { item, count } = event.payload;
      if (item !== undefined && count !== undefined) {
        // A For each item: listed under its step, which waits for its items.
        return updateStep(next, event.nodeId, (step) => ({
          ...step,
          status: "waiting",
          loopItems: { count, runs: [...(step.loopItems?.runs ?? []).filter((each) => each.item !== item), { item, runId: event.payload.runId, status: "running" }] },
        }));
      }
      // A child run of a workflow the reader may not open comes without its id (lib/server/access/run-view.ts): no link.
      const hidden = event.payload.runId === "";
      return updateStep(next, event.nodeId, (step) => ({
        ...step,
        status: "waiting",
        progress: hidden ? `Waits for ${event.payload.workflowName}` : waitsFor(event.payload.workflowName, event.payload.runId),
        childRun: hidden ? null : { id: event.payload.runId, workflowName: event.payload.workflowName },
      }));
    }
    case "node-carried-over":
      return updateStep(next, event.nodeId, (step) => ({
        ...step,
        status: "succeeded",
        output: event.payload.output,
        error: null,
        errorKind: null,
        carriedFrom: event.payload.fromRunId,
        carriedAs: event.payload.as ?? null,
      }));
    case "node-failed":
      return updateStep(withdrawApprovals(next, event.nodeId), event.nodeId, (step) => ({
        ...step,
        status: "failed",
        error: stringOr(event.payload.error, "The step failed."),
        errorKind: event.payload.errorKind ?? step.errorKind,
        handledBy: event.payload.handledBy ?? null,
        retryAt: null,
        input: undefined,
        finishedAt: event.createdAt,
      }));
    case "node-skipped":
      return updateStep(next, event.nodeId, (step) =>
        event.payload.reason === "attached" && typeof event.payload.agent === "string"
          ? { ...step, status: "attached", attachedTo: event.payload.agent }
          : { ...step, status: "skipped", finishedAt: event.createdAt },
      );
    case "node-text-delta":
    case "node-model-usage":
    case "node-tool-call-started":
    case "node-tool-call-finished":
      return updateStep(next, event.nodeId, (step) => ({ ...step, agent: applyAgentEvent(step.agent, event) }));
    case "approval-requested": {
      const approval = event.payload.approval;
      const withApproval = { ...next, approvals: upsert(next.approvals, approval) };
      return event.nodeId ? updateStep(withApproval, event.nodeId, (step) => ({ ...step, status: "waiting" })) : withApproval;
    }
    // One of several approvals it needs, or its escalation: its card reads where it stands again (who approved, who decides now).
    case "approval-voted": {
      const { approvalId, approvals: approvalsSoFar } = event.payload;
      return { ...next, approvals: next.approvals.map((approval) => (approval.id === approvalId ? { ...approval, approvalsSoFar } : approval)) };
    }
    case "approval-escalated":
      return { ...next, approvals: next.approvals.map((approval) => (approval.id === event.payload.approvalId ? { ...approval, escalated: true } : approval)) };
    // Who was told, as its card lists it; a view is the timeline's alone.
    case "approval-notified":
      return { ...next, approvals: next.approvals.map((approval) => (approval.id === event.payload.approvalId ? { ...approval, notices: (approval.notices ?? 0) + 1 } : approval)) };
    case "approval-viewed":
      return next;
    case "approval-decided": {
      const approval = event.payload.approval;
      const approvals = upsert(next.approvals, approval);
      // The engine says nothing more until the step's next event (seconds, for a long command): a decision that
      // leaves nobody asked means the run goes on, so the heading must not keep saying it waits for someone.
      const resumes = next.status === "awaiting_input" && approval.status !== "cancelled" && !approvals.some((each) => each.status === "pending");
      const withApproval: RunViewState = { ...next, approvals, status: resumes ? "running" : next.status };
      return event.nodeId
        ? updateStep(withApproval, event.nodeId, (step) => (step.status === "waiting" ? { ...step, status: "running" } : step))
        : withApproval;
    }
    default: {
      // Every type of the contract is handled above; the type checker says so when one is added.
      const unhandled: never = event;
      return unhandled;
    }
  }
}

/** Streamed model text is shown once, in the agent's panel; every other event tells the run's story. */
/** A Sub-workflow step's progress line while it waits: "Waits for “Child” run #K8R1T6". */
/** How many items a For each step's stored input says it goes through. */
function countOfLoop(input: unknown): number | null {
  const count = input !== null && typeof input === "object" ? (input as { count?: unknown }).count : undefined;
  return typeof count === "number" ? count : null;
}

function waitsFor(workflowName: string, runId: string): string {
  return `Waits for “${workflowName}” run ${shortRunId(runId)}`;
}

function belongsInTimeline(event: RunEvent): boolean {
  // The agent's panel shows its text and its tokens; the timeline would list a row per turn.
  return event.type !== "node-text-delta" && event.type !== "node-model-usage";
}

/** Marks the pending approvals of `nodeId` (every node: null) as withdrawn: nobody can decide them any more. */
function withdrawApprovals(state: RunViewState, nodeId: string | null): RunViewState {
  const stale = state.approvals.some((approval) => approval.status === "pending" && (nodeId === null || approval.nodeId === nodeId));
  if (!stale) return state;
  return {
    ...state,
    approvals: state.approvals.map((approval) =>
      approval.status === "pending" && (nodeId === null || approval.nodeId === nodeId) ? { ...approval, status: "cancelled" } : approval,
    ),
  };
}

/** The pending approvals of a node (for the panel beside it). */
export function pendingApprovalsOf(state: RunViewState, nodeId: string): ApprovalView[] {
  return state.approvals.filter((approval) => approval.nodeId === nodeId && approval.status === "pending");
}

function updateStep(state: RunViewState, nodeId: string | null, change: (step: StepView) => StepView): RunViewState {
  if (!nodeId) return state;
  const step = state.steps[nodeId] ?? emptyStep();
  if (batch !== null && batch.steps === state.steps) {
    batch.steps[nodeId] = change(step);
    return state;
  }
  const steps = { ...state.steps, [nodeId]: change(step) };
  if (batch !== null) batch.steps = steps;
  return { ...state, steps };
}

function appendToTimeline(timeline: readonly RunEvent[], event: RunEvent): readonly RunEvent[] {
  if (batch !== null && batch.timeline === timeline) {
    batch.timeline.push(event);
    return timeline;
  }
  const appended = timeline.length >= TIMELINE_LIMIT ? [...timeline.slice(1 - TIMELINE_LIMIT), event] : [...timeline, event];
  if (batch !== null) batch.timeline = appended;
  return appended;
}

/**
 * The steps object and timeline array made while a batch of events is applied (applyRunEvents): nothing outside the
 * batch has seen them yet, so the batch's later events change them in place instead of copying them again. Copying
 * was the live run page's cost: a 2,000-step run copied 2,000 steps (and up to 1,000 timeline entries) per event,
 * 3.7 s of main thread over 10,000 events, in tasks of up to a second.
 */
let batch: { steps: Record<string, StepView> | null; timeline: RunEvent[] | null } | null = null;

/** `events` applied in order, as applyRunEvent would one by one, copying the steps and the timeline at most once. */
export function applyRunEvents(state: RunViewState, events: readonly RunEvent[]): RunViewState {
  if (events.length <= 1) return events.length === 0 ? state : applyRunEvent(state, events[0]!);
  batch = { steps: null, timeline: null };
  try {
    const next = events.reduce(applyRunEvent, state);
    // In place, the timeline grew past its limit: keep its newest entries (a new array: the batch's own is done with).
    return next.timeline.length > TIMELINE_LIMIT ? { ...next, timeline: next.timeline.slice(-TIMELINE_LIMIT) } : next;
  } finally {
    batch = null;
  }
}

function upsert(approvals: readonly ApprovalView[], approval: ApprovalView): ApprovalView[] {
  const index = approvals.findIndex((each) => each.id === approval.id);
  if (index === -1) return [...approvals, approval];
  const copy = [...approvals];
  copy[index] = approval;
  return copy;
}

/** The message of a progress or notification event, if it carries one. */
export function progressMessage(event: RunEvent): string | null {
  if (event.type !== "node-progress" && event.type !== "node-notified") return null;
  const payload = event.payload;
  if ("message" in payload) return payload.message.trim() !== "" ? payload.message : null;
  // A tool's streamed output (a command's stdout): its latest line shows the step is alive.
  if (payload.type === "tool-output") {
    const text = payload.text;
    const lines = text.split("\n").map((line) => line.trim()).filter((line) => line !== "");
    const last = lines[lines.length - 1];
    if (last) return last.length > 200 ? `${last.slice(0, 200)}…` : last;
  }
  return null;
}

function stringOr(value: unknown, fallback: string): string {
  return typeof value === "string" && value !== "" ? value : fallback;
}
