import { describe, expect, it } from "vitest";
import { ParkedRun, RunCancelled } from "../step-errors";
import type { ApprovalDecisionInput, ApprovalRecord, ApprovalRequest, ApprovalStanding, StoredVote } from "../run-types";
import { ApprovalWaits, type ApprovalAnnouncement, type ApprovalStore, type WaitingRun } from "./approval-waits";

/** The approvals part of the run store, in memory, with the same first-decision-wins rule. */
class MemoryApprovalStore implements ApprovalStore {
  readonly rows = new Map<string, ApprovalRecord>();
  /** Approval id → the votes cast toward it, oldest first. */
  readonly votes = new Map<string, StoredVote[]>();
  readonly escalations = new Map<string, string>();
  readonly views = new Map<string, { id: string; by: string; at: string }[]>();
  private nextId = 1;
  private clock = 0;

  async approvalStanding(approvalId: string): Promise<ApprovalStanding | null> {
    if (!this.rows.has(approvalId)) return null;
    return { votes: [...(this.votes.get(approvalId) ?? [])], escalatedAt: this.escalations.get(approvalId) ?? null, notifications: [], views: [...(this.views.get(approvalId) ?? [])] };
  }

  vote(approvalId: string, name: string, approve = true): void {
    this.votes.set(approvalId, [...(this.votes.get(approvalId) ?? []), { personId: `person-${name}`, name, approve, at: this.tick() }]);
  }

  escalate(approvalId: string): void {
    this.escalations.set(approvalId, this.tick());
  }

  view(approvalId: string, by: string): void {
    const views = this.views.get(approvalId) ?? [];
    this.views.set(approvalId, [...views, { id: `${approvalId}-view-${views.length + 1}`, by, at: this.tick() }]);
  }

  /** Times in the order things happen here. */
  private tick(): string {
    return new Date(Date.UTC(2026, 0, 1) + ++this.clock * 1000).toISOString();
  }

  async openApproval(request: ApprovalRequest & { digest: string }): Promise<{ approval: ApprovalRecord; created: boolean }> {
    const existing = [...this.rows.values()].find((row) => row.runId === request.runId && row.key === request.key);
    if (existing) return { approval: existing, created: false };
    const approval: ApprovalRecord = {
      ...request,
      id: `a${this.nextId++}`,
      effect: request.effect ?? { kind: "text", text: request.preview },
      status: "pending",
      decision: null,
      feedback: null,
      decidedBy: null,
      decidedAt: null,
      createdAt: new Date(0).toISOString(),
    };
    this.rows.set(approval.id, approval);
    return { approval, created: true };
  }

  async getApproval(id: string): Promise<ApprovalRecord | null> {
    return this.rows.get(id) ?? null;
  }

  async decideApproval(id: string, input: ApprovalDecisionInput): Promise<{ approval: ApprovalRecord; changed: boolean } | null> {
    // Yield first, so two decisions started together really race.
    await Promise.resolve();
    const row = this.rows.get(id);
    if (!row) return null;
    if (row.status !== "pending") return { approval: row, changed: false };
    const status = input.decision === "deny" ? "denied" : input.decision === "answer" ? "answered" : "approved";
    const decided = { ...row, status, decision: input.decision, feedback: input.feedback, decidedBy: input.decidedBy === null ? null : { personId: input.decidedById ?? null, name: input.decidedBy }, decidedAt: "now" } as const;
    this.rows.set(id, decided);
    return { approval: decided, changed: true };
  }

  async supersedeApproval(id: string): Promise<void> {
    const row = this.rows.get(id);
    if (row?.status === "pending") this.rows.set(id, { ...row, status: "cancelled" });
  }

  async cancelApprovals(runId: string): Promise<string[]> {
    const pending = [...this.rows.values()].filter((row) => row.runId === runId && row.status === "pending");
    for (const row of pending) this.rows.set(row.id, { ...row, status: "cancelled", feedback: "The run was cancelled." });
    return pending.map((row) => row.id);
  }
}

/** A run that records what it was asked to announce, in order. */
function waitingRun(
  options: { runId?: string; steps?: string[]; announced?: { requested: string[]; decided: string[]; voted?: [string, number][] }; required?: number; escalates?: boolean } = {},
) {
  const announcements: ApprovalAnnouncement[] = [];
  const voted = new Map(options.announced?.voted);
  const escalated = new Set<string>();
  const viewed = new Set<string>();
  const run: WaitingRun & { cancelled: boolean; letGo: boolean } = {
    runId: options.runId ?? "run-1",
    cancelled: false,
    letGo: false,
    announced: { requested: new Set(options.announced?.requested), decided: new Set(options.announced?.decided), voted, escalated, notified: new Set(), viewed },
    stepOf: (nodeId) => ((options.steps ?? ["write"]).includes(nodeId) ? nodeId : null),
    policyOf: () => ({
      approvers: [],
      required: options.required ?? 1,
      ...(options.escalates ? { deadline: { minutes: 5, then: "escalate" as const, escalateTo: [{ kind: "role" as const, role: "admin" as const }], escalateMinutes: 5 } } : {}),
    }),
    announce: async (announcement) => {
      // As the engine does: what was announced is remembered.
      for (const event of announcement.events) {
        if (event.type === "approval-voted") voted.set(event.payload.approvalId, event.payload.approvals);
        if (event.type === "approval-escalated") escalated.add(event.payload.approvalId);
        if (event.type === "approval-viewed") viewed.add(event.payload.viewId);
      }
      announcements.push(announcement);
    },
  };
  return { run, announcements };
}

/** The events announced, as "type by whom" lines. */
function announcedEvents(announcements: readonly ApprovalAnnouncement[]): string[] {
  return announcements.flatMap((announcement) =>
    announcement.events.map((event) =>
      event.type === "approval-voted"
        ? `voted ${event.payload.by} ${event.payload.approvals}/${event.payload.required}`
        : event.type === "approval-escalated"
          ? "escalated"
          : event.type === "approval-viewed"
            ? `viewed ${event.payload.by}`
            : event.type === "approval-notified"
              ? `notified ${event.payload.notification.to}`
              : `${event.type.slice(9)} ${event.payload.approval.decidedBy?.name ?? ""}`.trim(),
    ),
  );
}

function request(overrides: Partial<ApprovalRequest> = {}): ApprovalRequest {
  return {
    runId: "run-1",
    nodeId: "write",
    key: "write:0",
    kind: "write",
    tool: "write_file",
    operation: null,
    arguments: { path: "a.txt", content: "v1" },
    preview: "a.txt: +1 −0",
    effect: { kind: "file-change", path: "a.txt", change: "create", added: 1, removed: 0, rows: [] },
    ...overrides,
  };
}

const person = (decision: ApprovalDecisionInput["decision"], decidedBy = "ada"): ApprovalDecisionInput => ({ decision, feedback: null, decidedBy });

/** Lets the wait reach the point where it is registered and announced. */
async function untilWaiting(announcements: ApprovalAnnouncement[]): Promise<void> {
  for (let turn = 0; turn < 50 && !announcements.some((each) => each.change === "waiting"); turn++) await new Promise((resolve) => setTimeout(resolve, 0));
}

/** One step waiting on a fresh approval: the waits, what the step awaits, the approval and the run's announcements. */
async function oneWaitingStep() {
  const store = new MemoryApprovalStore();
  const waits = new ApprovalWaits(store);
  const { run, announcements } = waitingRun();
  const waiting = waits.await(run, request());
  // A test that cancels instead of deciding need not await it.
  waiting.catch(() => undefined);
  await untilWaiting(announcements);
  const opened = [...store.rows.values()][0]!;
  return { store, waits, run, announcements, waiting, opened };
}

describe("ApprovalWaits", () => {
  it("wakes a step decided by another process (the studio deciding a CLI's run) when asked to look, and only then", async () => {
    const store = new MemoryApprovalStore();
    const watching = new ApprovalWaits(store, { decisionsElsewhereEveryMs: 5 });
    const blind = new ApprovalWaits(store);
    const seen = waitingRun();
    const unseen = waitingRun({ runId: "run-2" });
    const waiting = watching.await(seen.run, request());
    blind.await(unseen.run, request({ runId: "run-2" })).catch(() => undefined);
    await untilWaiting(seen.announcements);
    await untilWaiting(unseen.announcements);
    // Both written straight to the store, as the studio's process would: neither process's decide() is called.
    for (const row of [...store.rows.values()]) await store.decideApproval(row.id, person("once", "studio user"));

    await expect(waiting).resolves.toMatchObject({ runId: "run-1", status: "approved", decidedBy: { personId: null, name: "studio user" } });
    expect(watching.isWaiting("run-1")).toBe(false);
    // By the time the watching process noticed, the one that does not look has not: the studio's own API wakes its steps itself.
    expect(blind.isWaiting("run-2")).toBe(true);
  });

  it("opens an approval, announces it, and wakes the waiting step with the person's decision", async () => {
    const { waits, announcements, waiting, opened } = await oneWaitingStep();
    expect(announcements).toEqual([
      {
        change: "waiting",
        stepId: "write",
        approvalId: opened.id,
        events: [{ type: "approval-requested", nodeId: "write", payload: { approval: expect.objectContaining({ id: opened.id, status: "pending" }) } }],
      },
    ]);
    expect(waits.isWaiting("run-1")).toBe(true);

    await waits.decide(opened.id, person("once"));
    const decided = await waiting;
    expect(decided).toMatchObject({ id: opened.id, status: "approved", decision: "once" });
    expect(waits.isWaiting("run-1")).toBe(false);
    expect(announcements[1]).toEqual({
      change: "resumed",
      stepId: "write",
      othersWaiting: false,
      events: [{ type: "approval-decided", nodeId: "write", payload: { approval: expect.objectContaining({ status: "approved" }), requestedAt: opened.createdAt } }],
    });
    // The summary leaves out what events must not carry.
    expect(Object.keys((announcements[1] as { events: { payload: { approval: object } }[] }).events[0]!.payload.approval)).not.toContain("runId");
  });

  it("reuses a replayed step's decided approval without waiting, announcing only what is missing", async () => {
    const store = new MemoryApprovalStore();
    const { approval } = await store.openApproval({ ...request(), effect: request().effect!, digest: "" });
    await store.decideApproval(approval.id, person("once"));
    const waits = new ApprovalWaits(store);
    const { run, announcements } = waitingRun({ announced: { requested: [approval.id], decided: [] } });

    expect(await waits.await(run, request())).toMatchObject({ id: approval.id, decision: "once" });
    expect(announcements).toEqual([{ change: "none", events: [expect.objectContaining({ type: "approval-decided" })] }]);
    expect(store.rows.size).toBe(1);
  });

  it("does not let a step go on when its decision came just before the run was parked: the next drive replays it", async () => {
    const store = new MemoryApprovalStore();
    const waits = new ApprovalWaits(store);
    const { run, announcements } = waitingRun();
    const announce = run.announce;
    // As the engine parks a run once every step in flight waits: right after the wait is stored. A decision heard in
    // between has already woken this step's waiter, so parking finds none to let go.
    run.announce = async (announcement) => {
      await announce(announcement);
      if (announcement.change !== "waiting") return;
      await waits.decide(announcement.approvalId, { decision: "approve", feedback: null, decidedBy: "Ann" } as ApprovalDecisionInput);
      run.letGo = true;
      waits.releaseRun(run.runId);
    };
    await expect(waits.await(run, request())).rejects.toBeInstanceOf(ParkedRun);
    expect(announcements.map((announcement) => announcement.change)).toEqual(["waiting"]);
    // The decision stands for the next drive, which finds it at once and goes on.
    const next = waitingRun({ announced: { requested: ["a1"], decided: [] } });
    await expect(waits.await(next.run, request())).resolves.toMatchObject({ id: "a1", status: "approved" });
    expect(announcedEvents(next.announcements)).toEqual(["decided Ann"]);
  });

  it("withdraws a pending approval whose call changed and asks again under a key naming the new digest", async () => {
    const { store, waits, run, opened: old } = await oneWaitingStep();

    // The step is replayed (another process) and would now write something else.
    const replay = waitingRun();
    void new ApprovalWaits(store).await(replay.run, request({ arguments: { path: "a.txt", content: "v2" } })).catch(() => undefined);
    await untilWaiting(replay.announcements);
    const fresh = [...store.rows.values()].find((row) => row.id !== old.id);
    expect(store.rows.get(old.id)?.status).toBe("cancelled");
    expect(fresh).toMatchObject({ status: "pending", key: expect.stringMatching(/^write:0#.{12}$/) });
    await waits.cancelRun(run);
  });

  it("lets exactly one of two concurrent decisions win", async () => {
    const { waits, announcements, waiting, opened } = await oneWaitingStep();

    const [approve, deny] = await Promise.all([waits.decide(opened.id, person("once", "ada")), waits.decide(opened.id, person("deny", "bob"))]);
    expect([approve?.changed, deny?.changed].filter(Boolean)).toHaveLength(1);
    const winner = approve?.changed ? "once" : "deny";
    expect(await waiting).toMatchObject({ decision: winner });
    expect(announcements.filter((each) => each.change === "resumed")).toHaveLength(1);
  });

  it("on cancel, announces each pending approval as decided (cancelled) before waking its step with RunCancelled", async () => {
    const store = new MemoryApprovalStore();
    const waits = new ApprovalWaits(store);
    const order: string[] = [];
    const { run, announcements } = waitingRun({ steps: ["write"] });
    const announce = run.announce;
    run.announce = async (announcement) => {
      order.push(announcement.change === "none" ? announcement.events.map((event) => `${event.type}:${"approval" in event.payload ? event.payload.approval.status : ""}`).join(",") : announcement.change);
      await announce(announcement);
    };
    const stepWait = waits.await(run, request()).catch((error: unknown) => {
      order.push(error instanceof RunCancelled ? "step woken: cancelled" : "step woken: other");
    });
    const planWait = waits.await(run, request({ nodeId: "__run__", key: "__run__:plan", kind: "plan", effect: { kind: "text", text: "1. write" } })).catch(() => undefined);
    for (let turn = 0; turn < 50 && announcements.filter((each) => each.change === "waiting").length < 2; turn++) {
      await new Promise((resolve) => setTimeout(resolve, 0));
    }

    run.cancelled = true;
    await waits.cancelRun(run);
    await Promise.all([stepWait, planWait]);
    expect(order).toEqual(["waiting", "waiting", "approval-decided:cancelled,approval-decided:cancelled", "step woken: cancelled"]);
    const cancelled = announcements.find((each) => each.change === "none");
    expect(cancelled?.events.map((event) => event.nodeId).sort()).toEqual(["write", null].sort());
    expect(waits.isWaiting(run.runId)).toBe(false);
    await expect(waits.await(run, request({ key: "write:1" }))).rejects.toBeInstanceOf(RunCancelled);
  });

  it("announces each approval toward one that needs several people once, in order, and the one that completes it as the decision", async () => {
    const store = new MemoryApprovalStore();
    const waits = new ApprovalWaits(store);
    const { run, announcements } = waitingRun({ required: 3 });
    const waiting = waits.await(run, request());
    await untilWaiting(announcements);
    const opened = [...store.rows.values()][0]!;
    store.vote(opened.id, "ada");
    // Heard twice at once (this process's API, and the database's notice): announced once.
    await Promise.all([waits.noticeDecision(opened.id), waits.noticeDecision(opened.id)]);
    expect(announcedEvents(announcements)).toEqual(["requested", "voted ada 1/3"]);
    // A second approval that nobody said a word about (another process, no notice): announced with the decision, before it.
    store.vote(opened.id, "bo");
    store.vote(opened.id, "cy");
    await waits.decide(opened.id, person("once", "cy"));
    await waiting;
    expect(announcedEvents(announcements)).toEqual(["requested", "voted ada 1/3", "voted bo 2/3", "decided cy"]);
    expect(announcements.at(-1)?.change).toBe("resumed");
  });

  it("announces on a replay only the approvals no stored event counted, and none for an approval one person decides", async () => {
    const store = new MemoryApprovalStore();
    const waits = new ApprovalWaits(store);
    const first = waitingRun({ required: 3 });
    void waits.await(first.run, request()).catch(() => undefined);
    await untilWaiting(first.announcements);
    const opened = [...store.rows.values()][0]!;
    store.vote(opened.id, "ada");
    store.vote(opened.id, "bo");
    waits.releaseRun("run-1");
    // Resumed after a restart: ada's approval was stored as an event, bo's was not.
    const replay = waitingRun({ required: 3, announced: { requested: [opened.id], decided: [], voted: [[opened.id, 1]] } });
    const again = new ApprovalWaits(store);
    const waiting = again.await(replay.run, request());
    await untilWaiting(replay.announcements);
    for (let turn = 0; turn < 50 && announcedEvents(replay.announcements).length < 1; turn++) await new Promise((resolve) => setTimeout(resolve, 0));
    expect(announcedEvents(replay.announcements)).toEqual(["voted bo 2/3"]);
    await again.decide(opened.id, person("deny", "cy"));
    expect(await waiting).toMatchObject({ status: "denied" });
    expect(announcedEvents(replay.announcements)).toEqual(["voted bo 2/3", "decided cy"]);

    // One person decides (the default): nothing but its opening and its decision is said.
    const single = waitingRun({ runId: "run-2" });
    const alone = waits.await(single.run, request({ runId: "run-2" }));
    await untilWaiting(single.announcements);
    const lone = [...store.rows.values()].find((row) => row.runId === "run-2")!;
    store.view(lone.id, "dee");
    await waits.noticeDecision(lone.id);
    await waits.noticeDecision(lone.id);
    await waits.decide(lone.id, person("once", "dee"));
    await alone;
    expect(announcedEvents(single.announcements)).toEqual(["requested", "viewed dee", "decided dee"]);
  });

  it("announces an approval's escalation once, in its place among the votes, and not again after a restart", async () => {
    const store = new MemoryApprovalStore();
    const waits = new ApprovalWaits(store);
    const { run, announcements } = waitingRun({ required: 2, escalates: true });
    const waiting = waits.await(run, request());
    await untilWaiting(announcements);
    const opened = [...store.rows.values()][0]!;
    store.escalate(opened.id);
    store.vote(opened.id, "ada");
    await Promise.all([waits.noticeDecision(opened.id), waits.noticeDecision(opened.id)]);
    expect(announcedEvents(announcements)).toEqual(["requested", "escalated", "voted ada 1/2"]);
    waits.releaseRun("run-1");
    await expect(waiting).rejects.toThrow();

    // Driven again: nothing said twice; the decision comes after.
    const replay = waitingRun({ required: 2, escalates: true, announced: { requested: [opened.id], decided: [], voted: [[opened.id, 1]] } });
    (replay.run.announced.escalated as Set<string>).add(opened.id);
    const again = new ApprovalWaits(store);
    const resumed = again.await(replay.run, request());
    await untilWaiting(replay.announcements);
    store.vote(opened.id, "bo");
    await again.decide(opened.id, person("once", "bo"));
    await resumed;
    expect(announcedEvents(replay.announcements)).toEqual(["decided bo"]);
  });

  it("leaves other runs' waits alone when one run is cancelled", async () => {
    const store = new MemoryApprovalStore();
    const waits = new ApprovalWaits(store);
    const one = waitingRun({ runId: "run-1" });
    const two = waitingRun({ runId: "run-2" });
    void waits.await(one.run, request()).catch(() => undefined);
    const other = waits.await(two.run, request({ runId: "run-2" }));
    await untilWaiting(one.announcements);
    await untilWaiting(two.announcements);

    await waits.cancelRun(one.run);
    expect(waits.isWaiting("run-2")).toBe(true);
    const pending = [...store.rows.values()].find((row) => row.runId === "run-2")!;
    await waits.decide(pending.id, person("deny"));
    expect(await other).toMatchObject({ status: "denied" });
  });
});
