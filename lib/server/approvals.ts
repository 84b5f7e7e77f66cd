import { recordAudit } from "@/lib/persistence/audit-store";
import { getApprovalDetail, type ApprovalDetail } from "@/lib/persistence/run-queries";
import { DECISIONS_BY_KIND } from "@/lib/contracts/approval";
import { DIGEST_MISMATCH, type DecisionBody } from "@/lib/validations/run";
import { clientAddress, type Principal } from "./access/principal";
import { HttpError } from "./http";
import { startStudio } from "./studio";

/**
 * Records a person's decision and resumes the waiting step: 422 for a
 * decision the approval's kind does not take, 409 when it was already
 * decided or when the digest the card rendered is not the approval's. The
 * decision names the person who made it (their name and id), and the
 * security log records it.
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
  const result = await studio.engine.decide(id, { decision: body.decision, feedback: body.feedback ?? null, decidedBy: principal.person, decidedById: principal.personId });
  if (!result) throw new HttpError(404, `No approval "${id}" exists.`);
  if (!result.changed) throw alreadyDecided(await getApprovalDetail(id, studio.database));
  const decided = await getApprovalDetail(id, studio.database);
  await recordAudit(
    {
      actor: principal.person,
      actorId: principal.personId,
      action: "approval-decided",
      target: id,
      detail: { workflow: decided.workflowName, runId: decided.runId, kind: decided.kind, tool: decided.tool, decision: body.decision },
      clientAddress: clientAddress(request),
    },
    studio.database,
  );
  return decided;
}

function alreadyDecided(approval: ApprovalDetail): HttpError {
  const by = approval.decidedBy ? ` by ${approval.decidedBy.name}` : "";
  return new HttpError(409, `This approval was already ${approval.status}${by}; a decision cannot be changed.`, { approval });
}
