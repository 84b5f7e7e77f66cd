import type { CallToolResult, Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { approvalWorkflowTitle } from "@/lib/contracts/approval";
import { NotFoundError, type StudioDatabase } from "@/lib/persistence";
import { getApprovalDetail } from "@/lib/persistence/run-queries";
import { DecisionBodySchema } from "@/lib/validations/run";
import { requireWorkflowScope } from "./access/authorize";
import type { Principal } from "./access/principal";
import { listApprovalsFor } from "./access/run-view";
import { forViewer } from "./approval-deciders";
import { decideApproval } from "./approvals";
import { HttpError } from "./http";
import { mcpErrorResult } from "./mcp-results";

/**
 * The approval inbox as two tools on the studio's MCP endpoint, for a person
 * who decides from their own agent client with a personal access token that
 * carries approval:decide: list what waits for them, and decide one. The
 * same checks as the inbox (the scope on the workflow, the approval's
 * policy, the digest of what was shown), under the token's person.
 */

export const LIST_PENDING_APPROVALS = "list_pending_approvals";
export const DECIDE_APPROVAL = "decide_approval";
/** Names no served workflow takes, whoever calls: a workflow named "Decide approval" is served as decide_approval_2. */
export const APPROVAL_TOOL_NAMES: readonly string[] = [LIST_PENDING_APPROVALS, DECIDE_APPROVAL];

const ListArgumentsSchema = z.object({ limit: z.number().int().min(1).max(200).default(50) }).strict();
const DecideArgumentsSchema = DecisionBodySchema.extend({
  approvalId: z.string().min(1).max(200),
  // An agent decides on what it was shown, always: the digest from list_pending_approvals.
  digest: z.string().min(1).max(200),
}).strict();

/** The two tools, for a caller whose token carries approval:decide; none otherwise. */
export function approvalTools(principal: Principal | null): McpTool[] {
  if (principal === null || !principal.scopes.has("approval:decide")) return [];
  return [
    {
      name: LIST_PENDING_APPROVALS,
      title: "List approvals waiting for me",
      description:
        "The approvals in Neurosurfer Studio that wait for your decision: what each step wants to do (hidden characters marked), its workflow, how many approvals it needs and has, and the digest to send with a decision.",
      inputSchema: { type: "object", properties: { limit: { type: "integer", minimum: 1, maximum: 200, default: 50 } }, additionalProperties: false },
      annotations: { title: "List approvals waiting for me", readOnlyHint: true, openWorldHint: false },
    },
    {
      name: DECIDE_APPROVAL,
      title: "Decide an approval",
      description:
        "Approve or deny one approval as yourself. Send the digest list_pending_approvals gave: a decision about anything else is refused. Writes take once, always or deny; commands, requests, MCP calls and plans approve or deny; questions answer (with feedback) or deny. To change a call before approving it, send its edited arguments (all of them, as list_pending_approvals gave them, changed where you want) with once or approve; an agent's plan, the edited plan with approve. An edit that does not fit the tool's input is refused, naming each field, and nothing is decided.",
      inputSchema: {
        type: "object",
        properties: {
          approvalId: { type: "string" },
          decision: { type: "string", enum: ["once", "always", "approve", "deny", "answer"] },
          digest: { type: "string" },
          feedback: { type: "string", description: "A reason for a denial, an instruction, or the answer to a question." },
          arguments: { type: "object", description: "Edit and approve a write, command, request or MCP call: the arguments to run instead (secret inputs left as shown)." },
          plan: { type: "string", description: "Edit and approve an agent's plan: the plan it carries out instead." },
        },
        required: ["approvalId", "decision", "digest"],
        additionalProperties: false,
      },
      annotations: { title: "Decide an approval", readOnlyHint: false, destructiveHint: true, openWorldHint: false },
    },
  ];
}

/** Runs one of the two tools; null when `name` is neither (a workflow's tool). */
export async function callApprovalTool(name: string, args: unknown, principal: Principal | null, request: Request, database: StudioDatabase): Promise<CallToolResult | null> {
  if (name !== LIST_PENDING_APPROVALS && name !== DECIDE_APPROVAL) return null;
  if (principal === null || !principal.scopes.has("approval:decide")) {
    return mcpErrorResult("Deciding approvals needs a personal access token that carries approval:decide.");
  }
  try {
    return name === LIST_PENDING_APPROVALS ? await listPending(args, principal, database) : await decide(args, principal, request, database);
  } catch (error) {
    if (error instanceof HttpError) return mcpErrorResult(error.message);
    if (NotFoundError.isInstance(error)) return mcpErrorResult(error.message);
    throw error;
  }
}

async function listPending(args: unknown, principal: Principal, database: StudioDatabase): Promise<CallToolResult> {
  const parsed = ListArgumentsSchema.safeParse(args ?? {});
  if (!parsed.success) return badArguments(parsed.error);
  const pending = await listApprovalsFor(principal, { status: "pending", limit: parsed.data.limit }, database);
  const mine = (await forViewer(pending, principal, database)).filter((approval) => approval.viewer.mayDecide);
  const approvals = mine.map((approval) => ({
    approvalId: approval.id,
    workflow: approvalWorkflowTitle(approval),
    step: approval.nodeLabel,
    kind: approval.kind,
    tool: approval.tool,
    wants: approval.preview,
    arguments: approval.arguments,
    digest: approval.digest,
    runId: approval.runId,
    askedAt: approval.createdAt,
    approvalsNeeded: approval.policy.required,
    approvedBy: approval.votes.filter((vote) => vote.approve).map((vote) => vote.name),
  }));
  const text = approvals.length === 0 ? "Nothing waits for your decision." : JSON.stringify(approvals, null, 2);
  return { content: [{ type: "text", text }], structuredContent: { approvals } };
}

async function decide(args: unknown, principal: Principal, request: Request, database: StudioDatabase): Promise<CallToolResult> {
  const parsed = DecideArgumentsSchema.safeParse(args ?? {});
  if (!parsed.success) return badArguments(parsed.error);
  const { approvalId, ...body } = parsed.data;
  const found = await getApprovalDetail(approvalId, database);
  // The same checks as POST /api/approvals/{id}: a workflow they may not see is "no such approval".
  await requireWorkflowScope(principal, found.workflowId, "approval:decide", request, database, { kind: "approval", id: approvalId });
  const decided = await decideApproval(approvalId, body, principal, request);
  const standing =
    decided.status === "pending"
      ? `Your approval is recorded: ${decided.votes.filter((vote) => vote.approve).length} of ${decided.policy.required}; it waits for others.`
      : `The approval is now ${decided.status}${decided.editedArguments ? ", with your edit" : ""}.`;
  return { content: [{ type: "text", text: standing }], structuredContent: { approvalId, status: decided.status } };
}

/** A call whose arguments do not fit its tool's schema, each problem named by its field, for the model to correct. */
function badArguments(error: z.ZodError): CallToolResult {
  return mcpErrorResult(`Bad arguments: ${error.issues.map((issue) => `${issue.path.join(".") || "arguments"}: ${issue.message}`).join("; ")}`);
}
