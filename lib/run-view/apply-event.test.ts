import { sampleEvents } from "@/lib/contracts/run-event-samples";
import { describe, expect, it } from "vitest";
import type { RunEvent, StepRecord } from "@/lib/workflow/run-types";
import { applyRunEvent, applyRunEvents, initialRunViewState, pendingApprovalsOf, TIMELINE_LIMIT, type RunSnapshot, type RunViewState } from "./apply-event";

const step = (nodeId: string, status: StepRecord["status"] = "pending"): StepRecord => ({
  nodeId,
  status,
  input: null,
  output: null,
  error: null,
  errorKind: null,
  attempt: 0,
  retryAt: null,
  startedAt: null,
  finishedAt: null,
  carriedFromRunId: null,
    carriedAs: null,
});

const snapshot = (overrides: Partial<RunSnapshot> = {}): RunSnapshot => ({
  status: "running",
  error: null,
  output: null,
  finishedAt: null,
  lastSeq: 0,
  steps: [step("in"), step("write"), step("out")],
  approvals: [],
  ...overrides,
});

let seq = 0;
function event(type: RunEvent["type"], nodeId: string | null, payload: Record<string, unknown> = {}, at = seq + 1): RunEvent {
  seq = Math.max(seq, at);
  return { runId: "r1", seq: at, type, nodeId, payload, createdAt: `2025-01-01T00:00:${String(at % 60).padStart(2, "0")}.000Z` } as RunEvent;
}

const approval = (status: string, decision: string | null = null, feedback: string | null = null) => ({
  id: "a1",
  kind: "write",
  nodeId: "write",
  tool: "write_file",
  operation: null,
  arguments: { path: "x.txt" },
  preview: "--- /dev/null\n+++ x.txt\n@@ -0,0 +1 @@\n+hi\n",
  status,
  decision,
  feedback,
  decidedBy: decision ? { personId: "p1", name: "Ada" } : null,
  decidedAt: decision ? "2025-01-01T00:01:00.000Z" : null,
});

function applyAll(state: RunViewState, events: RunEvent[]): RunViewState {
  return events.reduce(applyRunEvent, state);
}

describe("applyRunEvent", () => {
  it("follows a run through start, approval, decision and success", () => {
    seq = 0;
    const events = [
      event("run-started", null, { inputs: {} }),
      event("node-started", "in", { kind: "input", attempt: 1 }),
      event("node-succeeded", "in", { output: { content: "{}", data: {} } }),
      event("node-started", "write", { kind: "tool", attempt: 1, tool: "write_file", operation: null }),
      event("node-progress", "write", { message: "checking the folder" }),
      event("approval-requested", "write", { approval: approval("pending") }),
      event("run-awaiting-input", null, { approvalId: "a1" }),
    ];
    let state = applyAll(initialRunViewState(snapshot()), events);
    expect(state.status).toBe("awaiting_input");
    expect(state.steps.in?.status).toBe("succeeded");
    expect(state.steps.write?.status).toBe("waiting");
    expect(state.steps.write?.progress).toBe("checking the folder");
    expect(pendingApprovalsOf(state, "write").map((each) => each.id)).toEqual(["a1"]);
    expect(state.lastSeq).toBe(7);
    expect(state.timeline).toHaveLength(7);

    state = applyAll(state, [
      event("approval-decided", "write", { approval: approval("approved", "once") }),
      event("node-succeeded", "write", { output: { content: "Wrote x.txt" } }),
      event("node-started", "out", { kind: "output", attempt: 1 }),
      event("node-succeeded", "out", { output: { content: "done" } }),
      event("run-succeeded", null, { output: "done" }),
    ]);
    expect(state.status).toBe("succeeded");
    expect(state.output).toBe("done");
    expect(state.finishedAt).not.toBeNull();
    expect(state.steps.write).toMatchObject({ status: "succeeded", output: { content: "Wrote x.txt" } });
    // The resolved arguments are not in the event: unknown (to be fetched), not "none".
    expect(state.steps.write?.input).toBeUndefined();
    expect(pendingApprovalsOf(state, "write")).toEqual([]);
    expect(state.approvals[0]).toMatchObject({ status: "approved", decision: "once", decidedBy: { personId: "p1", name: "Ada" } });
  });

  it("is running again as soon as the last pending approval is decided, not waiting for the step's next event", () => {
    seq = 0;
    const second = { ...approval("pending"), id: "a2" };
    let state = applyAll(initialRunViewState(snapshot()), [
      event("run-started", null, { inputs: {} }),
      event("node-started", "write", { attempt: 1 }),
      event("approval-requested", "write", { approval: approval("pending") }),
      event("approval-requested", "write", { approval: second }),
      event("run-awaiting-input", null, { approvalId: "a1" }),
      event("approval-decided", "write", { approval: approval("approved", "approve") }),
    ]);
    // Another approval still waits: so does the run.
    expect(state.status).toBe("awaiting_input");
    state = applyRunEvent(state, event("approval-decided", "write", { approval: { ...approval("approved", "approve"), id: "a2" } }));
    expect(state.status).toBe("running");
    expect(state.steps.write?.status).toBe("running");

    // A run being cancelled withdraws its approvals first: that is no resumption.
    seq = 0;
    const cancelling = applyAll(initialRunViewState(snapshot()), [
      event("approval-requested", "write", { approval: approval("pending") }),
      event("run-awaiting-input", null, { approvalId: "a1" }),
      event("approval-decided", "write", { approval: approval("cancelled") }),
    ]);
    expect(cancelling.status).toBe("awaiting_input");
  });

  it("ignores an event it has already applied (a reconnect resending from Last-Event-ID)", () => {
    seq = 0;
    const first = [event("run-started", null), event("node-started", "in", { attempt: 1 }), event("node-succeeded", "in", { output: { content: "a" } })];
    const state = applyAll(initialRunViewState(snapshot()), first);
    // The connection dropped after seq 2 from the server's point of view; it resends 2 and 3.
    const again = applyAll(state, [first[1]!, first[2]!]);
    expect(again).toBe(state);
    expect(again.timeline.map((each) => each.seq)).toEqual([1, 2, 3]);
    // A repeated node-started must not reset a finished step.
    expect(again.steps.in?.status).toBe("succeeded");
    const next = applyRunEvent(again, event("node-started", "write", { attempt: 1 }, 4));
    expect(next.lastSeq).toBe(4);
    expect(next.steps.write?.status).toBe("running");
  });

  it("starts after the snapshot: events the snapshot already holds change nothing", () => {
    seq = 0;
    const history = [event("run-started", null), event("node-started", "in"), event("node-succeeded", "in", { output: { content: "x" } })];
    const state = initialRunViewState(snapshot({ lastSeq: 3, steps: [step("in", "succeeded"), step("write"), step("out")] }), history);
    expect(state.timeline).toHaveLength(3);
    expect(applyAll(state, history)).toBe(state);
    // Events past the snapshot in the history are left for the stream, not shown twice.
    const ahead = initialRunViewState(snapshot({ lastSeq: 2 }), history);
    expect(ahead.timeline.map((each) => each.seq)).toEqual([1, 2]);
    expect(applyRunEvent(ahead, history[2]!).timeline.map((each) => each.seq)).toEqual([1, 2, 3]);
  });

  it("records failures, skips, denials and cancellation", () => {
    seq = 0;
    const state = applyAll(initialRunViewState(snapshot()), [
      event("node-started", "write", { attempt: 1 }),
      event("approval-requested", "write", { approval: approval("pending") }),
      event("approval-decided", "write", { approval: approval("denied", "deny", "use notes.md") }),
      event("node-failed", "write", { error: "The write was denied: use notes.md" }),
      event("node-skipped", "out"),
      event("run-failed", null, { error: "Node write failed." }),
    ]);
    expect(state.steps.write).toMatchObject({ status: "failed", error: "The write was denied: use notes.md" });
    expect(state.steps.out?.status).toBe("skipped");
    expect(state.approvals[0]).toMatchObject({ status: "denied", feedback: "use notes.md" });
    expect(state).toMatchObject({ status: "failed", error: "Node write failed." });

    const cancelled = applyRunEvent(state, event("run-cancelled", null, { error: "Cancelled.", cancelledBy: "Ada" }));
    expect(cancelled.status).toBe("cancelled");
  });

  it("keeps the latest progress while running and clears it when the step restarts", () => {
    seq = 0;
    let state = applyAll(initialRunViewState(snapshot()), [
      event("node-started", "write", { attempt: 1 }),
      event("node-progress", "write", { message: "10%" }),
      event("node-progress", "write", { message: "50%" }),
      event("node-progress", "write", { type: "tool-output", tool: "run_command", text: "" }),
    ]);
    expect(state.steps.write?.progress).toBe("50%");
    state = applyRunEvent(state, event("node-progress", "write", { type: "tool-output", text: "part 1\npart 2\n" }));
    expect(state.steps.write?.progress).toBe("part 2");
    state = applyRunEvent(state, event("node-started", "write", { attempt: 2 }));
    expect(state.steps.write).toMatchObject({ progress: null, attempt: 2, status: "running" });
  });

  it("restores the progress of a running step from the history", () => {
    seq = 0;
    const history = [event("node-started", "write"), event("node-progress", "write", { message: "row 400 of 1000" })];
    const state = initialRunViewState(snapshot({ lastSeq: 2, steps: [step("write", "running")] }), history);
    expect(state.steps.write?.progress).toBe("row 400 of 1000");
  });

  it("shows a step a retry kept as succeeded with the source's result, from the snapshot and from the stream alike", () => {
    seq = 0;
    const kept = { ...step("in", "succeeded"), output: { content: "{}" }, carriedFromRunId: "01SOURCE" };
    expect(initialRunViewState(snapshot({ steps: [kept, step("write")] })).steps.in).toMatchObject({ status: "succeeded", carriedFrom: "01SOURCE", output: { content: "{}" } });
    const live = applyAll(initialRunViewState(snapshot()), [
      event("run-started", null, { inputs: {}, source: { runId: "01SOURCE", kind: "retry-from-failure" } }),
      event("node-carried-over", "write", { fromRunId: "01SOURCE", output: { content: "Wrote x.txt" } }),
    ]);
    expect(live.steps.write).toMatchObject({ status: "succeeded", carriedFrom: "01SOURCE", output: { content: "Wrote x.txt" }, error: null });
    expect(live.steps.out).toMatchObject({ status: "pending", carriedFrom: null });
    expect(live.timeline.map((each) => each.type)).toEqual(["run-started", "node-carried-over"]);
  });

  it("shows a Sub-workflow step waiting for the run it called, with a link to it, from the stream and from the snapshot alike", () => {
    seq = 0;
    const live = applyAll(initialRunViewState(snapshot()), [
      event("node-started", "write", { kind: "subworkflow", attempt: 1 }),
      event("child-run-started", "write", { runId: "01CHILD00RUN1", workflowId: "w2", workflowName: "Child", version: 3 }),
    ]);
    expect(live.steps.write).toMatchObject({ status: "waiting", childRun: { id: "01CHILD00RUN1", workflowName: "Child" }, progress: "Waits for “Child” run #00RUN1" });
    const stored = initialRunViewState(
      snapshot({ lastSeq: 1, steps: [step("in", "succeeded"), step("write", "waiting")], childRuns: [{ id: "01CHILD00RUN1", nodeId: "write", workflowName: "Child" }] }),
      [event("node-started", "write", { kind: "subworkflow", attempt: 1 }, 1)],
    );
    expect(stored.steps.write).toMatchObject({ status: "waiting", childRun: { id: "01CHILD00RUN1", workflowName: "Child" }, progress: "Waits for “Child” run #00RUN1" });
    // Read after the child-run-started event's commit and before the one storing the step as waiting: it waits all the same
    // (no later event would say so), and the run of an earlier attempt does not make a retried step wait.
    const between = initialRunViewState(
      snapshot({
        lastSeq: 2,
        steps: [step("in", "succeeded"), { ...step("write", "running"), attempt: 2 }],
        childRuns: [{ id: "01CHILD00RUN1", nodeId: "write", workflowName: "Child", attempt: 2 }],
      }),
      [event("node-started", "write", { kind: "subworkflow", attempt: 2 }, 1), event("child-run-started", "write", { runId: "01CHILD00RUN1", workflowId: "w2", workflowName: "Child", version: 3 }, 2)],
    );
    expect(between.steps.write).toMatchObject({ status: "waiting", progress: "Waits for “Child” run #00RUN1" });
    const retried = initialRunViewState(
      snapshot({ lastSeq: 1, steps: [step("in", "succeeded"), { ...step("write", "running"), attempt: 2 }], childRuns: [{ id: "01CHILD00RUN1", nodeId: "write", workflowName: "Child", attempt: 1 }] }),
      [event("node-started", "write", { kind: "subworkflow", attempt: 2 }, 1)],
    );
    expect(retried.steps.write).toMatchObject({ status: "running", childRun: { id: "01CHILD00RUN1" } });
    // A child run of a workflow the reader may not open comes masked: the step waits, with no link to a run that is a 404 to them.
    seq = 0;
    const masked = applyAll(initialRunViewState(snapshot()), [
      event("node-started", "write", { kind: "subworkflow", attempt: 1 }),
      event("child-run-started", "write", { runId: "", workflowId: "", workflowName: "a workflow you may not open", version: 3 }),
    ]);
    expect(masked.steps.write).toMatchObject({ status: "waiting", childRun: null, progress: "Waits for a workflow you may not open" });
  });

  it("shows a For each step's progress and its items, each linking to its run, from the stream and from the snapshot alike", () => {
    seq = 0;
    const live = applyAll(initialRunViewState(snapshot()), [
      event("node-started", "write", { kind: "foreach", attempt: 1 }),
      event("node-progress", "write", { message: "0 of 3 done" }),
      event("child-run-started", "write", { runId: "01ITEM0000A0", workflowId: "w1", workflowName: "Parent", version: 1, item: 0, count: 3 }),
      event("child-run-started", "write", { runId: "01ITEM0000B1", workflowId: "w1", workflowName: "Parent", version: 1, item: 1, count: 3 }),
      event("node-progress", "write", { type: "loop-item", message: "1 of 3 done, 1 failed", item: 1, runId: "01ITEM0000B1", status: "failed" }),
    ]);
    expect(live.steps.write).toMatchObject({
      status: "waiting",
      progress: "1 of 3 done, 1 failed",
      childRun: null,
      loopItems: { count: 3, runs: [{ item: 0, runId: "01ITEM0000A0", status: "running" }, { item: 1, runId: "01ITEM0000B1", status: "failed" }] },
    });
    const stored = initialRunViewState(
      snapshot({
        lastSeq: 4,
        steps: [step("in", "succeeded"), { ...step("write", "waiting"), attempt: 1 }],
        childRuns: [
          { id: "01ITEM0000A0", nodeId: "write", workflowName: "Parent", kind: "for-each", attempt: 1, item: 0, status: "succeeded" },
          { id: "01ITEM0000B1", nodeId: "write", workflowName: "Parent", kind: "for-each", attempt: 1, item: 1 },
        ],
      }),
      [
        event("node-started", "write", { kind: "foreach", attempt: 1 }, 1),
        event("child-run-started", "write", { runId: "01ITEM0000A0", workflowId: "w1", workflowName: "Parent", version: 1, item: 0, count: 3 }, 2),
        event("child-run-started", "write", { runId: "01ITEM0000B1", workflowId: "w1", workflowName: "Parent", version: 1, item: 1, count: 3 }, 3),
        event("node-progress", "write", { message: "1 of 3 done" }, 4),
      ],
    );
    // Two of three items started: the count is the list's (from the items' start events), not the runs so far.
    expect(stored.steps.write).toMatchObject({
      status: "waiting",
      progress: "1 of 3 done",
      childRun: null,
      loopItems: { count: 3, runs: [{ item: 0, status: "succeeded" }, { item: 1, status: "running" }] },
    });
    // Read before the commit that stores the loop as waiting: its items say it waits.
    const between = initialRunViewState(
      snapshot({
        lastSeq: 2,
        steps: [step("in", "succeeded"), { ...step("write", "running"), attempt: 1 }],
        childRuns: [{ id: "01ITEM0000A0", nodeId: "write", workflowName: "Parent", kind: "for-each", attempt: 1, item: 0 }],
      }),
      [
        event("node-started", "write", { kind: "foreach", attempt: 1 }, 1),
        event("child-run-started", "write", { runId: "01ITEM0000A0", workflowId: "w1", workflowName: "Parent", version: 1, item: 0, count: 3 }, 2),
      ],
    );
    expect(between.steps.write).toMatchObject({ status: "waiting", loopItems: { count: 3, runs: [{ item: 0, status: "running" }] } });
  });

  it("counts an approval's votes toward one that needs several people, on its card's entry and in the timeline", () => {
    seq = 0;
    const pending = { ...approval("pending"), id: "a1" };
    const state = applyAll(initialRunViewState(snapshot()), [
      event("approval-requested", "write", { approval: pending }),
      event("approval-voted", "write", { approvalId: "a1", by: "Ada", approvals: 1, required: 2 }),
      event("approval-voted", "write", { approvalId: "someone-else", by: "Bo", approvals: 1, required: 2 }),
    ]);
    expect(state.approvals).toEqual([expect.objectContaining({ id: "a1", status: "pending", approvalsSoFar: 1 })]);
    expect(state.steps.write?.status).toBe("waiting");
    expect(state.timeline.map((each) => each.type)).toEqual(["approval-requested", "approval-voted", "approval-voted"]);
  });

  it("keeps the timeline bounded on a long run", () => {
    seq = 0;
    let state = initialRunViewState(snapshot());
    for (let index = 1; index <= TIMELINE_LIMIT + 50; index += 1) state = applyRunEvent(state, event("node-progress", "write", { message: `${index}` }, index));
    expect(state.timeline).toHaveLength(TIMELINE_LIMIT);
    expect(state.timeline[0]?.seq).toBe(51);
    expect(state.steps.write?.progress).toBe(String(TIMELINE_LIMIT + 50));
  });
});

describe("applyRunEvents, a batch at a time", () => {
  /** A run of many steps, each started and finished, with progress and an approval between: every kind of change. */
  function busyRun(steps: number): { start: RunViewState; events: RunEvent[] } {
    seq = 0;
    const ids = Array.from({ length: steps }, (_, index) => `s${index}`);
    const start = initialRunViewState(snapshot({ steps: ids.map((id) => step(id)) }));
    const events = [
      event("run-started", null),
      ...ids.flatMap((id) => [event("node-started", id), event("node-progress", id, { message: `working on ${id}` }), event("node-succeeded", id, { output: { content: id } })]),
      event("approval-requested", "s1", { approval: approval("pending") }),
      event("approval-decided", "s1", { approval: approval("approved", "once") }),
      event("run-succeeded", null, { output: "done" }),
    ];
    return { start, events };
  }

  it("ends where applying the events one by one ends, the timeline bounded, and leaves the state it started from as it was", () => {
    const { start, events } = busyRun(600);
    const before = structuredClone(start);
    const oneByOne = events.reduce(applyRunEvent, start);
    const batched = applyRunEvents(start, events);
    expect(batched).toEqual(oneByOne);
    expect(batched.timeline).toHaveLength(TIMELINE_LIMIT);
    expect(start).toEqual(before);
    // In two batches, and with a batch of repeats: the same again, and a repeat changes nothing.
    const halves = applyRunEvents(applyRunEvents(start, events.slice(0, 900)), events.slice(900));
    expect(halves).toEqual(oneByOne);
    expect(applyRunEvents(halves, events.slice(0, 10))).toBe(halves);
  });

  it("leaves the objects a previous batch handed out untouched", () => {
    const { start, events } = busyRun(5);
    const first = applyRunEvents(start, events.slice(0, 6));
    const stepsSeen = first.steps;
    const stepSeen = structuredClone(first.steps.s0);
    const timelineSeen = [...first.timeline];
    applyRunEvents(first, events.slice(6));
    expect(first.steps).toBe(stepsSeen);
    expect(first.steps.s0).toEqual(stepSeen);
    expect(first.timeline).toEqual(timelineSeen);
  });
});

describe("every event type of the contract", () => {
  it("is handled: applying one moves the position on and never throws", () => {
    let state = initialRunViewState(snapshot());
    for (const sample of sampleEvents()) {
      state = applyRunEvent(state, sample);
      expect(state.lastSeq, sample.type).toBe(sample.seq);
    }
  });

  it("keeps streamed model text out of the timeline and in the agent's panel, once", () => {
    let state = initialRunViewState(snapshot({ steps: [step("agent")] }));
    const deltas = ["I will ", "read the ", "folder."].map((text, index) => ({
      runId: "r1",
      seq: index + 1,
      type: "node-text-delta" as const,
      nodeId: "agent",
      payload: { text, turn: 1 },
      createdAt: "2025-01-01T00:00:00.000Z",
    }));
    for (const delta of deltas) state = applyRunEvent(state, delta);
    // A reconnecting stream resends from its position: repeats change nothing.
    for (const delta of deltas) state = applyRunEvent(state, delta);
    expect(state.steps.agent?.agent?.text).toBe("I will read the folder.");
    expect(state.timeline).toEqual([]);
    const reopened = initialRunViewState(snapshot({ steps: [step("agent")], lastSeq: 3 }), deltas);
    expect(reopened.steps.agent?.agent?.text).toBe("I will read the folder.");
    expect(reopened.timeline).toEqual([]);
  });

  it("shows a tool attached to an agent as attached, not skipped", () => {
    const attached = event("node-skipped", "write", { reason: "attached", agent: "agent" });
    const live = applyRunEvent(initialRunViewState(snapshot()), attached);
    expect(live.steps.write).toMatchObject({ status: "attached", attachedTo: "agent" });
    const reopened = initialRunViewState(snapshot({ steps: [step("write", "skipped")], lastSeq: attached.seq }), [attached]);
    expect(reopened.steps.write).toMatchObject({ status: "attached", attachedTo: "agent" });
    const notTaken = applyRunEvent(initialRunViewState(snapshot()), event("node-skipped", "out", { reason: "route" }));
    expect(notTaken.steps.out?.status).toBe("skipped");
  });
});

describe("approvals of a run that ends", () => {
  it("are withdrawn when the run is cancelled or its node fails, so no Approve button stays", () => {
    const opened = applyRunEvent(initialRunViewState(snapshot()), event("approval-requested", "write", { approval: approval("pending") }));
    expect(pendingApprovalsOf(opened, "write")).toHaveLength(1);
    const cancelled = applyRunEvent(opened, event("run-cancelled", null, { error: "Cancelled by Ada." }));
    expect(pendingApprovalsOf(cancelled, "write")).toEqual([]);
    expect(cancelled.approvals[0]?.status).toBe("cancelled");
    const failed = applyRunEvent(opened, event("node-failed", "write", { error: "The run was cancelled." }));
    expect(pendingApprovalsOf(failed, "write")).toEqual([]);
  });
});
