import { recordAudit } from "@/lib/persistence/audit-store";
import { getApprovalDetail, type ApprovalDetail } from "@/lib/persistence/run-queries";
import { DECISIONS_BY_KIND } from "@/lib/contracts/approval";
import { DIGEST_MISMATCH, type DecisionBody } from "@/lib/validations/run";
import { alwaysAllowRefusal, tally } from "@/lib/contracts/approval-policy";
import type { StudioDatabase } from "@/lib/persistence";
import { castVote, votesOn } from "@/lib/persistence/approval-votes";
import { clientAddress, type Principal } from "./access/principal";
import { forViewer } from "./approval-deciders";
import { HttpError } from "./http";
import { startStudio } from "./studio";

/**
 * Records a person's decision and resumes the waiting step: 422 for a
 * decision the approval's kind does not take, 403 naming the policy when the
 * person is not among its approvers, 409 when it was already decided or when
 * the digest the card rendered is not the approval's. Under a policy that
 * needs several people an approval is a vote: the step resumes when enough
 * have approved, or at the first denial. The decision names the person
 * who made it (their name and id), and the security log records it.
 */
export async function decideApproval(id: string, body: DecisionBody, principal: Principal, request: Request): Promise<ApprovalDetail> {
  const studio = await startStudio();
  const approval = await getApprovalDetail(id, studio.database);
  const allowed = DECISIONS_BY_KIND[approval.kind];
  if (!allowed.includes(body.decision)) {
    throw new HttpError(422, `decision: a ${approval.kind} approval takes ${allowed.join(", ")}; got "${body.decision}".`, {
      issues: [{ path: "decision", message: `expected one of ${allowed.join(", ")}`, code: "invalid_value" }],
    });
  }
  const alwaysRefused = body.decision === "always" ? alwaysAllowRefusal(approval.policy) : null;
  if (alwaysRefused) {
    throw new HttpError(422, `decision: ${alwaysRefused}`, { issues: [{ path: "decision", message: alwaysRefused, code: "invalid_value" }] });
  }
  if (body.decision === "answer" && !body.feedback) {
    throw new HttpError(422, "feedback: write the answer to the question.", {
      issues: [{ path: "feedback", message: "write the answer", code: "too_small" }],
    });
  }
  if (approval.status !== "pending") throw alreadyDecided(approval);
  if (body.digest !== undefined && body.digest !== approval.digest) {
    throw new HttpError(
      409,
      "What you were shown is not what this step would do now: its arguments or preview changed. Nothing was decided; look at the approval again and decide on what it shows now.",
      { approval, reason: DIGEST_MISMATCH },
    );
  }
  // The same answer the inbox's card gives this person (the scope on the workflow, then the approval's policy).
  const [seen] = await forViewer([approval], principal, studio.database);
  const refusal = seen!.viewer.reason;
  if (refusal !== null) {
    await recordAudit(
      {
        actor: principal.person,
        actorId: principal.personId,
        action: "access-refused",
        target: approval.workflowId,
        detail: { policy: refusal, approval: id, request: `${request.method} ${new URL(request.url).pathname}` },
        clientAddress: clientAddress(request),
      },
      studio.database,
    );
    throw new HttpError(403, refusal, { approval });
  }
  const decidedBy = principal.person;
  if (approval.policy.required > 1) {
    const cast = await castVote({ approvalId: id, personId: principal.personId, name: decidedBy, approve: body.decision !== "deny", feedback: body.feedback ?? null }, studio.database);
    if (cast === "already") throw new HttpError(409, "You have decided this already: it waits for someone else.", { approval });
    // Enough approvals, or a denial: the approval is decided (a race of the last two votes decides it once: engine.decide is conditional).
    if (tally(approval.policy, await votesOn(id, studio.database)) === "waiting") {
      const voted = await getApprovalDetail(id, studio.database);
      await auditDecision(voted, body, principal, request, studio.database);
      return voted;
    }
  }
  const result = await studio.engine.decide(id, { decision: body.decision, feedback: body.feedback ?? null, decidedBy, decidedById: principal.personId });
  if (!result) throw new HttpError(404, `No approval "${id}" exists.`);
  if (!result.changed) throw alreadyDecided(await getApprovalDetail(id, studio.database));
  const decided = await getApprovalDetail(id, studio.database);
  await auditDecision(decided, body, principal, request, studio.database);
  return decided;
}

/** The security log's entry for a decision, or for one person's vote toward an approval that needs several (`votes`). */
async function auditDecision(approval: ApprovalDetail, body: DecisionBody, principal: Principal, request: Request, database: StudioDatabase): Promise<void> {
  const vote = approval.policy.required > 1 ? { votes: `${approval.votes.filter((each) => each.approve).length} of ${approval.policy.required}` } : {};
  await recordAudit(
    {
      actor: principal.person,
      actorId: principal.personId,
      action: "approval-decided",
      target: approval.id,
      detail: { workflow: approval.workflowName, runId: approval.runId, kind: approval.kind, tool: approval.tool, decision: body.decision, ...vote },
      clientAddress: clientAddress(request),
    },
    database,
  );
}

function alreadyDecided(approval: ApprovalDetail): HttpError {
  const by = approval.decidedBy ? ` by ${approval.decidedBy.name}` : "";
  return new HttpError(409, `This approval was already ${approval.status}${by}; a decision cannot be changed.`, { approval });
}
