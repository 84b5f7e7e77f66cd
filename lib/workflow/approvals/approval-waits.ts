import { summarizeApproval } from "@/lib/contracts/approval";
import { approvalDigest } from "@/lib/tools";
import { ParkedRun, RunCancelled } from "../step-errors";
import type { ApprovalPolicy } from "@/lib/contracts/approval-policy";
import type { NewRunEvent } from "@/lib/contracts/run-event";
import type { AnnouncedApprovals, ApprovalDecisionInput, ApprovalRecord, ApprovalRequest, RunStore } from "../run-types";

/** What the waits need of the store: approvals only. */
export type ApprovalStore = Pick<RunStore, "openApproval" | "getApproval" | "decideApproval" | "supersedeApproval" | "cancelApprovals" | "approvalStanding">;

/**
 * An approval's event (requested, voted, escalated, notified, viewed, decided) as the contract has it, before the
 * engine numbers and stores it; `nodeId` is the step that asks, null for a run's own approval (its plan).
 */
export type ApprovalEvent = Extract<NewRunEvent, { type: `approval-${string}` }>;

/**
 * Events to persist and publish, with the run and step state they go with:
 * - `waiting`: the step (if any) now waits and the run awaits input;
 * - `resumed`: the step runs again, and the run too unless `othersWaiting`;
 * - `none`: the events alone (a replay catching up, a cancelled run's approvals).
 */
export type ApprovalAnnouncement =
  | { change: "none"; events: ApprovalEvent[] }
  | { change: "waiting"; stepId: string | null; approvalId: string; events: ApprovalEvent[] }
  | { change: "resumed"; stepId: string | null; othersWaiting: boolean; events: ApprovalEvent[] };

/** The run an approval belongs to, as the engine lends it to the waits. */
export interface WaitingRun {
  readonly runId: string;
  /** Once true, no new wait starts. */
  readonly cancelled: boolean;
  /**
   * This process let go of the run (parked it, or it crashed): what it announces is no
   * longer stored, so a decision heard now must not let the step go on to its effect unrecorded. The next drive
   * replays the step and finds the decision.
   */
  readonly letGo: boolean;
  /** Approvals whose events the run already stored (a resumed run), and the votes they counted: a replay announces only what is missing. */
  readonly announced: Readonly<AnnouncedApprovals>;
  /** The step of `nodeId`, or null when the node is not a step of the run (the plan's `__run__`). */
  stepOf(nodeId: string): string | null;
  /** The policy `approval` is decided under (from the run's workflow): how many must approve, its deadline. */
  policyOf(approval: ApprovalRecord): ApprovalPolicy;
  /** Persists, then publishes; resolves once stored. */
  announce(announcement: ApprovalAnnouncement): Promise<void>;
}

interface Waiter {
  runId: string;
  run: WaitingRun;
  stepId: string | null;
  approval: ApprovalRecord;
  resolve: (approval: ApprovalRecord) => void;
  reject: (error: Error) => void;
  /** What changed of the approval being announced, one look at a time, so each change is said once and before the decision. Never rejects. */
  looking: Promise<void>;
}

/**
 * Every wait for a person in this process: opens (or, on a replay, finds) the
 * stored approval, announces it, and wakes the waiting step when someone
 * decides or the run is cancelled. The engine keeps the run's lifecycle and
 * hands each wait its run as a {@link WaitingRun}.
 *
 * Order of writes, so a crash anywhere leaves something a replay can finish:
 * the approval row before the event announcing it, the decision before the
 * event saying so, and a cancelled run's approval-decided events before its
 * run-cancelled event.
 */
export interface ApprovalWaitsOptions {
  /**
   * Also look in the store for decisions another process made (the studio's
   * inbox deciding a run this CLI drives), every this many milliseconds while
   * something waits. Off by default: in the studio every decision comes
   * through its own API, which wakes the step at once.
   */
  decisionsElsewhereEveryMs?: number;
}

export class ApprovalWaits {
  private readonly waiters = new Map<string, Waiter>();
  private watch: ReturnType<typeof setInterval> | null = null;
  private looking = false;

  constructor(
    private readonly store: ApprovalStore,
    private readonly options: ApprovalWaitsOptions = {},
  ) {}

  /** Finds or creates the stored approval for `request` and resolves with it once decided. */
  async await(run: WaitingRun, request: ApprovalRequest): Promise<ApprovalRecord> {
    if (run.cancelled) throw new RunCancelled();
    const { approval, created } = await this.openCurrent(request);
    if (approval.status === "cancelled") throw new RunCancelled();
    const stepId = run.stepOf(request.nodeId);
    const requested = approvalEvent("approval-requested", stepId, approval);
    const unannounced = created || !run.announced.requested.has(approval.id);

    if (approval.status !== "pending") {
      if (run.letGo) throw new ParkedRun();
      // Decided before a restart cut the step short: say what is missing, once, and go on.
      if (!run.announced.decided.has(approval.id)) {
        const decided = approvalEvent("approval-decided", stepId, approval);
        const standing = await this.unannouncedStanding(run, stepId, approval);
        await run.announce({ change: "none", events: unannounced ? [requested, ...standing, decided] : [...standing, decided] });
      }
      return approval;
    }

    // Registered before announcing, so a decision that arrives at once is not lost.
    const waiter = this.register(run, stepId, approval);
    const decision = waiter.decision;
    // A cancel may reject it before it is awaited below; that is handled there, not unhandled.
    decision.catch(() => undefined);
    // With the votes and escalation that came while no process held the run (parked, or restarting), in the order of
    // the looks (a change heard meanwhile is looked at after this), so each is said once.
    const announcing = waiter.entry.looking.then(async () => {
      // One just opened has nothing to tell yet (a change that comes before this wait is heard is told with the decision).
      const standing = created ? [] : await this.unannouncedStanding(run, stepId, approval);
      await run.announce({ change: "waiting", stepId, approvalId: approval.id, events: [...(unannounced ? [requested] : []), ...standing] });
    });
    waiter.entry.looking = announcing.catch(() => undefined);
    try {
      await announcing;
    } catch (error) {
      this.waiters.delete(approval.id);
      throw error;
    }
    // It may have been decided before the waiter was registered (another process, a restart): look once more.
    const fresh = await this.store.getApproval(approval.id);
    if (fresh?.status === "cancelled") {
      // The run was cancelled between opening and registering: cancelRun() announced it already.
      this.waiters.delete(approval.id);
      throw new RunCancelled();
    }
    if (fresh && fresh.status !== "pending") this.wake(fresh);

    const decided = await decision;
    // The decision came in the moment between the wait's announcement and the run being parked (every step in flight
    // waiting): parking let go of no waiter, as this one had just been woken. Going on would run the tool with nothing
    // stored of it, and the next drive, finding the file already changed, would ask again.
    if (run.letGo) throw new ParkedRun();
    // After any look under way: each vote and escalation is announced once, before the decision it led to.
    await waiter.entry.looking;
    const standing = await this.unannouncedStanding(run, stepId, decided);
    await run.announce({
      change: "resumed",
      stepId,
      othersWaiting: this.isWaiting(run.runId),
      events: [...standing, approvalEvent("approval-decided", stepId, decided)],
    });
    return decided;
  }

  /**
   * Records a person's decision and wakes the step waiting for it. Only the
   * first decision counts: a repeated or concurrent one changes nothing
   * (`changed: false`). `null` when there is no such approval.
   */
  async decide(approvalId: string, decision: ApprovalDecisionInput): Promise<{ approval: ApprovalRecord; changed: boolean } | null> {
    const result = await this.store.decideApproval(approvalId, decision);
    if (result?.changed) this.wake(result.approval);
    return result;
  }

  /**
   * Withdraws every pending approval of a cancelled run: stores each as
   * cancelled, announces each with an `approval-decided` event (so other tabs
   * and the inbox see it go), then wakes its waiting step with RunCancelled.
   */
  async cancelRun(run: WaitingRun): Promise<void> {
    try {
      const ids = await this.store.cancelApprovals(run.runId);
      const stored = await Promise.all(ids.map((id) => this.store.getApproval(id)));
      // Re-read: one decided between the store's look and its update was not cancelled.
      const cancelled = stored.filter((approval): approval is ApprovalRecord => approval?.status === "cancelled");
      if (cancelled.length > 0) {
        await run.announce({
          change: "none",
          events: cancelled.map((approval) => approvalEvent("approval-decided", run.stepOf(approval.nodeId), approval)),
        });
      }
    } finally {
      // Whatever happened to the announcement, nothing of this run may wait on.
      for (const [approvalId, waiter] of this.waiters) {
        if (waiter.runId !== run.runId) continue;
        this.waiters.delete(approvalId);
        waiter.reject(new RunCancelled());
      }
    }
  }

  /** Stops waiting here for the run's decisions (its steps get ParkedRun); nothing is stored, the approvals stay pending. */
  releaseRun(runId: string): void {
    for (const [approvalId, waiter] of this.waiters) {
      if (waiter.runId !== runId) continue;
      this.waiters.delete(approvalId);
      waiter.reject(new ParkedRun());
    }
  }

  /**
   * Someone decided `approvalId`, voted toward it, or its deadline escalated it
   * (this process, or another over the database): wake its step if it waits
   * here, or announce what changed.
   */
  async noticeDecision(approvalId: string): Promise<void> {
    const waiter = this.waiters.get(approvalId);
    if (!waiter) return;
    const stored = await this.store.getApproval(approvalId);
    // A cancellation is this process's to announce (cancelRun); a decision anyone's.
    if (stored && stored.status !== "pending" && stored.status !== "cancelled") this.wake(stored);
    else if (stored?.status === "pending") await this.lookAgain(waiter);
  }

  /**
   * Announces what no event said yet of `waiter`'s approval (its votes, its
   * escalation), after any look already under way. Resolves once announced;
   * a failure rejects this call only (the chain goes on).
   */
  private lookAgain(waiter: Waiter): Promise<void> {
    const look = waiter.looking.then(async () => {
      if (this.waiters.get(waiter.approval.id) !== waiter) return; // decided meanwhile: the decision announces what is left
      const events = await this.unannouncedStanding(waiter.run, waiter.stepId, waiter.approval);
      if (events.length > 0) await waiter.run.announce({ change: "none", events });
    });
    waiter.looking = look.catch(() => undefined);
    return look;
  }

  /**
   * The events no stored one said yet of `approval` short of its decision, in
   * the order they happened: an `approval-voted` for each approval that left
   * it waiting (the one that completed it is its decision), its
   * `approval-escalated`, who was told it waits, and who opened its card.
   */
  private async unannouncedStanding(run: WaitingRun, stepId: string | null, approval: ApprovalRecord): Promise<ApprovalEvent[]> {
    const policy = run.policyOf(approval);
    const standing = await this.store.approvalStanding(approval.id);
    if (!standing) return [];
    const counted = run.announced.voted.get(approval.id) ?? 0;
    const changes: { at: string; event: ApprovalEvent }[] = standing.votes
      .filter((vote) => vote.approve)
      .flatMap((vote, index) =>
        index + 1 <= counted || index + 1 >= policy.required
          ? []
          : [{ at: vote.at, event: { type: "approval-voted", nodeId: stepId, payload: { approvalId: approval.id, by: vote.name, approvals: index + 1, required: policy.required } } }],
      );
    if (standing.escalatedAt !== null && !run.announced.escalated.has(approval.id)) {
      changes.push({ at: standing.escalatedAt, event: { type: "approval-escalated", nodeId: stepId, payload: { approvalId: approval.id } } });
    }
    for (const { at, ...notification } of standing.notifications) {
      if (!run.announced.notified.has(notification.id)) changes.push({ at, event: { type: "approval-notified", nodeId: stepId, payload: { approvalId: approval.id, notification } } });
    }
    for (const view of standing.views) {
      if (!run.announced.viewed.has(view.id)) changes.push({ at: view.at, event: { type: "approval-viewed", nodeId: stepId, payload: { approvalId: approval.id, viewId: view.id, by: view.by } } });
    }
    return changes.sort((one, other) => one.at.localeCompare(other.at)).map((change) => change.event);
  }

  /** Whether a step of the run is waiting for a person in this process. */
  isWaiting(runId: string): boolean {
    for (const waiter of this.waiters.values()) if (waiter.runId === runId) return true;
    return false;
  }

  private register(run: WaitingRun, stepId: string | null, approval: ApprovalRecord): { decision: Promise<ApprovalRecord>; entry: Waiter } {
    let entry!: Waiter;
    const decision = new Promise<ApprovalRecord>((resolve, reject) => {
      entry = { runId: run.runId, run, stepId, approval, resolve, reject, looking: Promise.resolve() };
      this.waiters.set(approval.id, entry);
    });
    this.watchElsewhere();
    return { decision, entry };
  }

  /** Starts looking for decisions made by other processes, if asked to, for as long as something waits. */
  private watchElsewhere(): void {
    const every = this.options.decisionsElsewhereEveryMs;
    if (!every || this.watch !== null) return;
    this.watch = setInterval(() => void this.lookElsewhere(), every);
  }

  private async lookElsewhere(): Promise<void> {
    if (this.looking) return;
    if (this.waiters.size === 0) {
      if (this.watch !== null) clearInterval(this.watch);
      this.watch = null;
      return;
    }
    this.looking = true;
    try {
      for (const approvalId of [...this.waiters.keys()]) {
        const stored = await this.store.getApproval(approvalId);
        // A cancellation is this process's to announce (cancelRun); a decision anyone's.
        if (stored && stored.status !== "pending" && stored.status !== "cancelled") this.wake(stored);
        const waiter = this.waiters.get(approvalId);
        if (waiter && stored?.status === "pending") await this.lookAgain(waiter);
      }
    } catch {
      // The store is unreachable for a moment: look again at the next tick.
    } finally {
      this.looking = false;
    }
  }

  private wake(approval: ApprovalRecord): void {
    const waiter = this.waiters.get(approval.id);
    if (!waiter) return;
    this.waiters.delete(approval.id);
    waiter.resolve(approval);
  }

  /**
   * The stored approval for this request, as long as it is about what the call
   * would do now. A replayed step whose arguments or preview changed (the file
   * it writes was edited meanwhile) does not inherit an answer given to
   * something else: a pending one is withdrawn, and either way it asks again
   * under a key naming the new digest.
   */
  private async openCurrent(request: ApprovalRequest): Promise<{ approval: ApprovalRecord; created: boolean }> {
    const effect = request.effect ?? { kind: "text" as const, text: request.preview };
    const digest = approvalDigest(request.arguments, effect);
    const opened = await this.store.openApproval({ ...request, effect, digest });
    // Approvals stored before digests existed have none: they stand as they are.
    if (opened.approval.digest === digest || opened.approval.digest === "") return opened;
    if (opened.approval.status === "pending") await this.store.supersedeApproval(opened.approval.id);
    return this.store.openApproval({ ...request, key: `${request.key}#${digest.slice(-12)}`, effect, digest });
  }
}

function approvalEvent(type: "approval-requested" | "approval-decided", nodeId: string | null, approval: ApprovalRecord): ApprovalEvent {
  const approvalSummary = summarizeApproval(approval);
  // When it was asked goes with its decision, so a trace can show the wait even where the asking happened in another process.
  return type === "approval-decided"
    ? { type, nodeId, payload: { approval: approvalSummary, requestedAt: approval.createdAt } }
    : { type, nodeId, payload: { approval: approvalSummary } };
}
