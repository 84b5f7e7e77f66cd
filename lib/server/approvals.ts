import { recordAudit } from "@/lib/persistence/audit-store";
import { getApprovalDetail, type ApprovalDetail } from "@/lib/persistence/run-queries";
import { DECISIONS_BY_KIND, type ApprovalEditForm, type ApprovalKind, type ApprovalRecord } from "@/lib/contracts/approval";
import { argumentChanges, checkEditedArguments, operationInputJsonSchema, type ToolPool } from "@/lib/tools";
import { PLAN_NODE } from "@/lib/workflow/engine/plan-description";
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
  const editedArguments = checkedEdit(approval, body, studio.pool());
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
  if (editedArguments && approval.policy.required > 1 && approval.votes.filter((vote) => vote.approve).length + 1 < approval.policy.required) {
    // What the others approved would not be what runs: only the approval that decides it may edit.
    throw new HttpError(409, `An edit can only come with the approval that decides this one (${approval.policy.required} approvals are needed); approve it as it is, or deny it and say what to change.`, { approval });
  }
  if (approval.policy.required > 1) {
    const cast = await castVote({ approvalId: id, personId: principal.personId, name: decidedBy, approve: body.decision !== "deny", feedback: body.feedback ?? null }, studio.database);
    if (cast === "already") throw new HttpError(409, "You have decided this already: it waits for someone else.", { approval });
    // Enough approvals, or a denial: the approval is decided (a race of the last two votes decides it once: engine.decide is conditional).
    if (tally(approval.policy, await votesOn(id, studio.database)) === "waiting") {
      // Said on the run's timeline and to every open page by whoever drives the run. The vote stands either way: a
      // failure here leaves it to be said with the decision.
      await studio.runs.approvalChanged(id, approval.runId).catch((error: unknown) => console.error(`[studio] could not announce a vote on approval ${id}`, error));
      const voted = await getApprovalDetail(id, studio.database);
      await auditDecision(voted, body, principal, request, studio.database);
      return voted;
    }
  }
  const result = await studio.engine.decide(id, { decision: body.decision, feedback: body.feedback ?? null, decidedBy, decidedById: principal.personId, editedArguments });
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
      detail: { workflow: approval.workflowName, runId: approval.runId, kind: approval.kind, tool: approval.tool, decision: body.decision, ...vote, ...editOf(approval) },
      clientAddress: clientAddress(request),
    },
    database,
  );
}

/** What the security log says of an edit: the fields changed, never their values (a secret could be among them). */
function editOf(approval: ApprovalDetail): { edited?: string[] } {
  if (!approval.editedArguments) return {};
  return { edited: argumentChanges(approval.arguments, approval.editedArguments).map((change) => change.field) };
}

const TOOL_CALL_KINDS: readonly ApprovalKind[] = ["write", "shell", "network", "mcp"];

/** The form "Edit and approve" shows for a pending tool call's approval; null for other kinds, or when its tool is gone. */
export function editFormOf(approval: ApprovalRecord, pool: ToolPool): ApprovalEditForm | null {
  if (approval.status !== "pending" || !TOOL_CALL_KINDS.includes(approval.kind) || approval.tool === null) return null;
  const tool = pool.get(approval.tool);
  if (!tool || tool.name !== approval.tool) return null;
  return { inputSchema: operationInputJsonSchema(tool, approval.operation, tool.secretInputs), kept: [...(tool.operations ? ["operation"] : []), ...tool.secretInputs] };
}

/**
 * The edit a decision carries, checked: the arguments of a tool call against
 * the tool's input model (as a model's call is checked), or a plan's text.
 * 422 naming each field when it does not fit, so nothing is decided; null
 * when there is no edit, or it changes nothing.
 */
function checkedEdit(approval: ApprovalDetail, body: DecisionBody, pool: ToolPool): Record<string, unknown> | null {
  if (body.plan !== undefined) {
    if (approval.kind !== "plan" || body.decision !== "approve") throw editRefused("plan", "an edited plan goes with approve, on a plan approval");
    // A run's plan describes its steps, which run as built whatever the text says: only an agent carries out a plan it is given.
    if (approval.nodeId === PLAN_NODE) throw editRefused("plan", "a run's plan lists its workflow's steps; change the workflow to change them");
    return body.plan === approval.preview.trim() ? null : { plan: body.plan };
  }
  if (body.arguments === undefined) return null;
  if (!TOOL_CALL_KINDS.includes(approval.kind) || approval.tool === null) {
    throw editRefused("arguments", `a ${approval.kind} approval has no arguments to edit`);
  }
  if (body.decision !== "once" && body.decision !== "approve") {
    throw editRefused("arguments", `edited arguments go with ${approval.kind === "write" ? "once" : "approve"}, not ${body.decision}`);
  }
  const tool = pool.get(approval.tool);
  if (!tool || tool.name !== approval.tool) throw editRefused("arguments", `the tool ${approval.tool} is not available, so an edit cannot be checked`);
  const check = checkEditedArguments(tool, approval.arguments, body.arguments);
  if (!check.ok) {
    const issues = check.issues.map((issue) => ({ path: `arguments.${issue.path}`, message: issue.message, code: "invalid_edit" }));
    throw new HttpError(422, `The edited arguments do not fit ${tool.title}: ${issues.map((issue) => `${issue.path}: ${issue.message}`).join("; ")}. Nothing was decided.`, { issues });
  }
  return argumentChanges(approval.arguments, check.arguments).length > 0 ? check.arguments : null;
}

function editRefused(path: string, message: string): HttpError {
  return new HttpError(422, `${path}: ${message}. Nothing was decided.`, { issues: [{ path, message, code: "invalid_edit" }] });
}

function alreadyDecided(approval: ApprovalDetail): HttpError {
  const by = approval.decidedBy ? ` by ${approval.decidedBy.name}` : "";
  return new HttpError(409, `This approval was already ${approval.status}${by}; a decision cannot be changed.`, { approval });
}
