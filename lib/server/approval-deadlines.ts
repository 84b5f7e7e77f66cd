import { onDeadline } from "@/lib/contracts/approval-policy";
import type { ApprovalDetail } from "@/lib/contracts/approval";
import type { StudioDatabase } from "@/lib/persistence";
import { recordAudit } from "@/lib/persistence/audit-store";
import { listApprovals } from "@/lib/persistence/run-queries";
import { DEADLINE_DECIDER } from "@/lib/workflow/approvals/approval-io-handler";
import type { ApprovalDecisionInput, ApprovalRecord } from "@/lib/workflow/run-types";


export interface DeadlineJob {
  /** One pass now (tests, and the first pass at start). */
  check(): Promise<void>;
  stop(): void;
}

interface DeadlineOptions {
  database: StudioDatabase;
  /** The engine's decision: conditional on the approval still waiting, so of two processes' passes one decides. */
  decide: (approvalId: string, decision: ApprovalDecisionInput) => Promise<{ approval: ApprovalRecord; changed: boolean } | null>;
  /** An approval was escalated: whoever drives its run says so (RunDriver.approvalChanged). */
  escalated: (approvalId: string, runId: string) => Promise<void>;
  everyMs: number;
  log: (message: string, error?: unknown) => void;
}

/**
 * Ends or escalates approvals nobody decided in time. A pass reads the waiting
 * approvals (their policy and when each runs out are worked out from the
 * run's version and the stored times, so nothing is lost over a restart),
 * escalates those whose first deadline passed (once: a conditional update of
 * `escalatedAt`), and denies, or answers with the default, the rest that ran
 * out (once: the engine decides only a waiting approval). Several processes
 * may pass at once; each change happens once.
 */
export function startApprovalDeadlines(options: DeadlineOptions): DeadlineJob {
  let running: Promise<void> | null = null;
  const check = (): Promise<void> => {
    running ??= pass(options)
      .catch((error: unknown) => options.log("could not check the approvals' deadlines; the next pass tries again", error))
      .finally(() => {
        running = null;
      });
    return running;
  };
  const timer = setInterval(() => void check(), options.everyMs);
  timer.unref();
  return { check, stop: () => clearInterval(timer) };
}

async function pass({ database, decide, escalated, log }: DeadlineOptions): Promise<void> {
  const now = Date.now();
  const due = (await listApprovals({ status: "pending", limit: 1000 }, database)).filter((approval) => approval.dueAt !== null && Date.parse(approval.dueAt) <= now);
  for (const approval of due) {
    const action = onDeadline(approval.policy, approval.kind, approval.escalatedAt !== null);
    if (action === "escalate") await escalate(approval, database, escalated, log);
    else await expire(approval, action, decide, database, log);
  }
}

async function escalate(approval: ApprovalDetail, database: StudioDatabase, escalated: DeadlineOptions["escalated"], log: DeadlineOptions["log"]): Promise<void> {
  const { count } = await database.approval.updateMany({ where: { id: approval.id, status: "pending", escalatedAt: null }, data: { escalatedAt: new Date() } });
  if (count === 0) return;
  log(`approval ${approval.id} of run ${approval.runId} was not decided in time: escalated`);
  await recordAudit({ actor: DEADLINE_DECIDER, action: "approval-escalated", target: approval.workflowId, detail: { approval: approval.id, run: approval.runId, to: approval.policy.deadline?.escalateTo ?? [] } }, database);
  // On the run's timeline, and to the open pages of the people it now waits for. Stored already: a failure here leaves it
  // to be said with the decision.
  await escalated(approval.id, approval.runId).catch((error: unknown) => log(`could not announce approval ${approval.id}'s escalation`, error));
}

async function expire(approval: ApprovalDetail, action: "answer" | "deny", decide: DeadlineOptions["decide"], database: StudioDatabase, log: DeadlineOptions["log"]): Promise<void> {
  const minutes = approval.escalatedAt !== null ? approval.policy.deadline?.escalateMinutes : approval.policy.deadline?.minutes;
  const late = `Nobody decided within ${minutes} minute${minutes === 1 ? "" : "s"}${approval.escalatedAt !== null ? " of its escalation" : ""}`;
  const decision: ApprovalDecisionInput =
    action === "answer"
      ? { decision: "answer", feedback: approval.policy.deadline?.answer ?? "", decidedBy: DEADLINE_DECIDER }
      : { decision: "deny", feedback: `${late}: denied by its deadline. Do not retry it as is.`, decidedBy: DEADLINE_DECIDER };
  const result = await decide(approval.id, decision);
  if (!result?.changed) return;
  log(`approval ${approval.id} of run ${approval.runId}: ${late}, ${action === "answer" ? "took its default answer" : "denied"}`);
  await recordAudit({ actor: DEADLINE_DECIDER, action: "approval-expired", target: approval.workflowId, detail: { approval: approval.id, run: approval.runId, outcome: action } }, database);
}
