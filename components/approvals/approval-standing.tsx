import { describeApprovers, excludesStarter, type ApprovalPolicy } from "@/lib/contracts/approval-policy";
import type { ApprovalVote } from "@/lib/contracts/approval";

/**
 * Where a waiting approval stands beside its buttons: how many have approved
 * of how many needed, and how long is left before its deadline acts.
 */

/**
 * Where an approval that needs several people stands: "1 of 2 approved, by
 * Abe", and the rule ("two different people, not the one who started the
 * run"). Nothing for an approval one person decides (today's rule).
 */
export function ApprovalQuorum({ policy, votes }: { policy: ApprovalPolicy | undefined; votes: readonly ApprovalVote[] | undefined }) {
  if (!policy || policy.required < 2) return null;
  const approvals = (votes ?? []).filter((vote) => vote.approve);
  const rule = `Needs ${policy.required} different people${excludesStarter(policy) ? ", not the one who started the run" : ""}.`;
  return (
    <p className="text-sm text-foreground" data-testid="approval-quorum">
      <span className="font-medium">
        {approvals.length} of {policy.required} approved
      </span>
      {approvals.length > 0 ? `, by ${approvals.map((vote) => vote.name).join(", ")}` : ""}. <span className="text-muted">{rule}</span>
    </p>
  );
}

/** What the card says after this person's approval counted toward several: it waits for the others. */
export function voteRecordedText(policy: ApprovalPolicy, votes: readonly ApprovalVote[]): string {
  const approvals = votes.filter((vote) => vote.approve).length;
  const missing = policy.required - approvals;
  return `Your approval is recorded: ${approvals} of ${policy.required}. It waits for ${missing === 1 ? "one more person" : `${missing} more people`}.`;
}

/** "Decide within 12 min: then it is denied", and, once escalated, to whom it went. Nothing without a deadline. */
export function ApprovalDue({ policy, dueAt, escalatedAt, now }: { policy: ApprovalPolicy | undefined; dueAt: string | null | undefined; escalatedAt: string | null | undefined; now: number }) {
  if (!policy?.deadline || !dueAt) return null;
  const left = Date.parse(dueAt) - now;
  const then = policy.deadline.then === "escalate" && !escalatedAt ? `it goes to ${describeApprovers(policy.deadline.escalateTo ?? [])}` : policy.deadline.then === "answer" ? "it takes its default answer" : "it is denied";
  return (
    <p className="text-sm text-foreground" data-testid="approval-due">
      {escalatedAt ? <span className="block text-caution">Nobody decided in time: escalated to {describeApprovers(policy.approvers)}.</span> : null}
      <time dateTime={dueAt} className="font-medium">
        {left > 0 ? `Decide within ${timeLeft(left)}` : "Its deadline has passed"}
      </time>
      <span className="text-muted">: {left > 0 ? "then " : "now "}{then}.</span>
    </p>
  );
}

/** 45 s, 12 min, 3 h 5 min, 2 days 4 h: as precise as a person needs at that distance. */
export function timeLeft(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return `${Math.max(1, Math.ceil(ms / 1000))} s`;
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
  const days = Math.floor(hours / 24);
  return hours % 24 === 0 ? `${days} days` : `${days} days ${hours % 24} h`;
}
