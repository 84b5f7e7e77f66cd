import { z } from "zod";
import { ApprovalNotificationViewSchema } from "./notifications";
import { ApprovalPreviewSchema } from "@/lib/tools/contracts";
import { ApprovalPolicySchema } from "./approval-policy";
import { RunStatusSchema } from "./run-status";

/**
 * An approval: a question a step asks a person (change a file, run a command,
 * reach the network, call an MCP tool, approve a plan, answer a question), as
 * the engine stores it, the API returns it, events carry it and cards render
 * it. One home for its kinds, decisions and statuses.
 */
export const APPROVAL_KINDS = ["write", "shell", "network", "mcp", "plan", "ask"] as const;
export const ApprovalKindSchema = z.enum(APPROVAL_KINDS);
export type ApprovalKind = z.infer<typeof ApprovalKindSchema>;

export const APPROVAL_STATUSES = ["pending", "approved", "denied", "answered", "cancelled"] as const;
export const ApprovalStatusSchema = z.enum(APPROVAL_STATUSES);
export type ApprovalStatus = z.infer<typeof ApprovalStatusSchema>;

/** `once`/`always`/`deny` for writes; `approve`/`deny` for shell, network, MCP and plans; `answer` for questions. */
export const APPROVAL_DECISIONS = ["once", "always", "approve", "deny", "answer"] as const;
export const ApprovalDecisionSchema = z.enum(APPROVAL_DECISIONS);
export type ApprovalDecision = z.infer<typeof ApprovalDecisionSchema>;

/** What a step of each kind wants, after its name: the card's title and the notification's subject. */
export const APPROVAL_KIND_HEADLINE: Readonly<Record<ApprovalKind, string>> = {
  write: "wants to change a file",
  shell: "wants to run a command",
  network: "wants to reach the network",
  mcp: "wants to call an MCP tool",
  plan: "asks you to approve its plan",
  ask: "has a question for you",
};

/** The decisions each kind of approval accepts; the API refuses any other with 422 and the card offers exactly these. */
export const DECISIONS_BY_KIND: Readonly<Record<ApprovalKind, readonly ApprovalDecision[]>> = {
  write: ["once", "always", "deny"],
  shell: ["approve", "deny"],
  network: ["approve", "deny"],
  mcp: ["approve", "deny"],
  plan: ["approve", "deny"],
  ask: ["answer", "deny"],
};

/**
 * Who decided an approval: the name shown ("Ada Lovelace", "access token",
 * "ada (terminal)") and the person's id, null when no person was known (a
 * decision made before people existed, or at the CLI's terminal).
 */
export const ApprovalDeciderSchema = z.object({ personId: z.string().nullable(), name: z.string() });
export type ApprovalDecider = z.infer<typeof ApprovalDeciderSchema>;

/** An approval as stored. */
export const ApprovalRecordSchema = z.object({
  id: z.string(),
  runId: z.string(),
  /** The step that asks; `__run__` for a run's plan. */
  nodeId: z.string(),
  /** Stable per request of a step, so a replayed step finds its own approval. */
  key: z.string(),
  kind: ApprovalKindSchema,
  tool: z.string().nullable(),
  operation: z.string().nullable(),
  /** The call's arguments, secret inputs masked. */
  arguments: z.record(z.string(), z.unknown()),
  /** What would happen as text, every hidden character marked (terminals, logs). */
  preview: z.string(),
  /** What would happen as data: what the cards render. */
  effect: ApprovalPreviewSchema,
  /** approvalDigest(arguments, effect): a decision naming another digest is refused. */
  digest: z.string(),
  status: ApprovalStatusSchema,
  decision: ApprovalDecisionSchema.nullable(),
  /**
   * "Edit and approve": the arguments the person approved instead of
   * `arguments` (secret inputs as shown); the call runs these, a replay too.
   * For a plan, `{ plan }`: the plan text the agent continues under. Null
   * (or absent) when approved as asked, denied or pending.
   */
  editedArguments: z.record(z.string(), z.unknown()).nullable().optional(),
  feedback: z.string().nullable(),
  decidedBy: ApprovalDeciderSchema.nullable(),
  decidedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type ApprovalRecord = z.infer<typeof ApprovalRecordSchema>;

/**
 * The run and step that called the approval's run, when a Sub-workflow step
 * of another workflow started it: the inbox says "<workflow> called by
 * <calling workflow>".
 */
export const ApprovalCallerSchema = z.object({
  runId: z.string(),
  workflowId: z.string(),
  workflowName: z.string(),
  nodeId: z.string(),
  nodeLabel: z.string(),
  /** For a For each item's run: which item (from 0) of how many; null for a Sub-workflow's run. */
  item: z.object({ index: z.number().int().nonnegative(), count: z.number().int().positive() }).nullable().default(null),
});
export type ApprovalCaller = z.infer<typeof ApprovalCallerSchema>;

/** One person's vote toward an approval that needs several. */
export const ApprovalVoteSchema = z.object({
  personId: z.string(),
  name: z.string(),
  approve: z.boolean(),
  feedback: z.string().nullable(),
  at: z.string(),
});
export type ApprovalVote = z.infer<typeof ApprovalVoteSchema>;

/** An approval with what the inbox shows beside it (GET /api/approvals, GET/POST /api/approvals/{id}). */
export const ApprovalDetailSchema = ApprovalRecordSchema.extend({
  workflowId: z.string(),
  workflowName: z.string(),
  /** Who called its run, when a Sub-workflow step did; null for runs started any other way. */
  calledBy: ApprovalCallerSchema.nullable(),
  /** The node's label, else its tool's id. */
  nodeLabel: z.string(),
  runStatus: RunStatusSchema,
  /** Who decides it and how many must (the step's policy, else its workflow's for the kind, else anyone who may decide). */
  policy: ApprovalPolicySchema,
  /** The approvals and denial cast so far toward a policy that needs several people, oldest first. */
  votes: z.array(ApprovalVoteSchema),
  /** The person who started its run (the policy may leave them out); null for a trigger or a schedule. */
  startedById: z.string().nullable(),
  /** When its deadline runs out (the escalation's, once escalated); null without one. */
  dueAt: z.string().nullable(),
  /** When its first deadline passed and it went to the escalation's approvers; null if it has not. */
  escalatedAt: z.string().nullable(),
  /** Who was told it waits, how, and whether it arrived (e-mail, webhooks), oldest first; a failure stays on the card. */
  notifications: z.array(ApprovalNotificationViewSchema),
});
export type ApprovalDetail = z.infer<typeof ApprovalDetailSchema>;

/**
 * What "Edit and approve" offers on a tool call's approval (GET
 * /api/approvals/{id}): the form of the call's input (its operation's JSON
 * Schema, secret inputs left out) and the arguments it keeps as they are
 * (the operation, secret inputs), which the form does not show.
 */
export const ApprovalEditFormSchema = z.object({
  inputSchema: z.record(z.string(), z.unknown()),
  kept: z.array(z.string()),
});
export type ApprovalEditForm = z.infer<typeof ApprovalEditFormSchema>;

/** Whether the person reading may decide it, and if not why (their scope, or the approval's policy). */
export const ApprovalViewerSchema = z.object({ mayDecide: z.boolean(), reason: z.string().nullable() });
export type ApprovalViewer = z.infer<typeof ApprovalViewerSchema>;

/** An approval as one person's inbox lists it (GET /api/approvals): with whether they may decide it. */
export const ApprovalForViewerSchema = ApprovalDetailSchema.extend({ viewer: ApprovalViewerSchema });
export type ApprovalForViewer = z.infer<typeof ApprovalForViewerSchema>;

/** The workflow an approval's card names: "Child called by Parent" for a sub-workflow's run, "Parent, item 3 of 10 of “Each note”" for a For each item's. */
export function approvalWorkflowTitle(approval: Pick<ApprovalDetail, "workflowName" | "calledBy">): string {
  const caller = approval.calledBy;
  if (!caller) return approval.workflowName;
  if (caller.item) return `${approval.workflowName}, item ${caller.item.index + 1} of ${caller.item.count} of “${caller.nodeLabel}”`;
  return `${approval.workflowName} called by ${caller.workflowName}`;
}

/** What an `approval-requested` / `approval-decided` event says about its approval: enough for a card, nothing secret. */
export const ApprovalSummarySchema = ApprovalRecordSchema.omit({ runId: true, key: true, createdAt: true });
export type ApprovalSummary = z.infer<typeof ApprovalSummarySchema>;

export function summarizeApproval(approval: ApprovalRecord): ApprovalSummary {
  const { runId: _runId, key: _key, createdAt: _createdAt, ...summary } = approval;
  return summary;
}
