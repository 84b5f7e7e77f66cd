import { excludesStarter, type ApprovalPolicy } from "@/lib/contracts/approval-policy";
import type { ApprovalVote } from "@/lib/contracts/approval";

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
