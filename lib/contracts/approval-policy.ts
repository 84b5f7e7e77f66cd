import { z } from "zod";
import { AlwaysAllowDaysSchema } from "./grants";
import { RoleSchema, type Role } from "./roles";

/**
 * Who decides an approval, and how many must: a workflow's policy for each
 * kind of step that asks (write, shell, network, MCP, plan), a default for
 * the rest, and a node's own policy over both. One contract for the workflow
 * settings form, the definition, the engine (which keeps the policy with the
 * approval it makes, so a later edit of the workflow does not change the rules
 * of a decision already waiting) and the decision route.
 *
 * Nothing set is today's rule: anyone with `approval:decide` on the workflow,
 * one of them.
 */

/** The kinds of approval a policy can be set for: every destructive step kind; questions (`ask`) follow the default. */
export const POLICY_KINDS = ["write", "shell", "network", "mcp", "plan"] as const;
export const PolicyKindSchema = z.enum(POLICY_KINDS);
export type PolicyKind = z.infer<typeof PolicyKindSchema>;

/** Most approvals one decision can need: more people than this belong in a process, not a step. */
export const MAX_REQUIRED_APPROVALS = 5;

export const ApproverSchema = z.discriminatedUnion("kind", [
  /** Everyone whose role, studio-wide or on this workflow, is this one. */
  z.object({ kind: z.literal("role"), role: RoleSchema }).strict(),
  /** One person, by id. */
  z.object({ kind: z.literal("person"), personId: z.string().trim().min(1).max(64) }).strict(),
]);
export type Approver = z.infer<typeof ApproverSchema>;

/** The longest deadline: a year, in minutes. */
export const MAX_DEADLINE_MINUTES = 525_600;
const DeadlineMinutesSchema = z
  .number()
  .int("whole minutes")
  .min(1, "at least 1 minute")
  .max(MAX_DEADLINE_MINUTES, `at most a year (${MAX_DEADLINE_MINUTES.toLocaleString("en-US")} minutes)`);

/** What happens when nobody decided in time. */
export const DEADLINE_ACTIONS = ["deny", "escalate", "answer"] as const;

/**
 * A deadline: after `minutes` undecided, deny; or escalate to other approvers
 * (who then have `escalateMinutes` before it is denied); or, for a question
 * (`ask_user`), take `answer` (any other kind of approval is denied: a default
 * never approves a change).
 */
export const ApprovalDeadlineSchema = z
  .object({
    minutes: DeadlineMinutesSchema,
    then: z.enum(DEADLINE_ACTIONS).default("deny"),
    escalateTo: z.array(ApproverSchema).max(50).optional(),
    escalateMinutes: DeadlineMinutesSchema.optional(),
    answer: z.string().trim().min(1).max(10_000).optional(),
  })
  .strict()
  .superRefine((deadline, context) => {
    if (deadline.then === "escalate" && (deadline.escalateTo ?? []).length === 0) {
      context.addIssue({ code: "custom", path: ["escalateTo"], message: "name the roles or people it escalates to" });
    }
    if (deadline.then === "escalate" && deadline.escalateMinutes === undefined) {
      context.addIssue({ code: "custom", path: ["escalateMinutes"], message: "say how long they have before it is denied" });
    }
    if (deadline.then === "answer" && deadline.answer === undefined) context.addIssue({ code: "custom", path: ["answer"], message: "write the answer to take" });
  });
export type ApprovalDeadline = z.infer<typeof ApprovalDeadlineSchema>;

export const ApprovalPolicySchema = z
  .object({
    /** Who may decide, besides holding `approval:decide` on the workflow; empty: anyone who holds it. */
    approvers: z.array(ApproverSchema).max(50).default([]),
    /** How many different people must approve; one denial ends it. */
    required: z.number().int().min(1).max(MAX_REQUIRED_APPROVALS, `at most ${MAX_REQUIRED_APPROVALS} approvals`).default(1),
    /** Whether the person who started the run (or whose token did) is left out; unset: left out when two or more must approve. */
    excludeStarter: z.boolean().optional(),
    /** Undecided for this long: deny, escalate, or (a question) take a default answer; unset, it waits. */
    deadline: ApprovalDeadlineSchema.optional(),
    /** How long an "Always allow" given under this policy lasts, in days; unset: ALWAYS_ALLOW_DEFAULT_DAYS. */
    alwaysAllowDays: AlwaysAllowDaysSchema.optional(),
  })
  .strict();
export type ApprovalPolicy = z.infer<typeof ApprovalPolicySchema>;
export type ApprovalPolicyInput = z.input<typeof ApprovalPolicySchema>;

/** Today's rule, and the rule of a workflow that sets none. */
export const ANYONE_WHO_MAY_DECIDE: ApprovalPolicy = { approvers: [], required: 1 };

/** A workflow's policies: one per kind that sets its own, and a default for the others. */
export const WorkflowApprovalPoliciesSchema = z
  .object({
    default: ApprovalPolicySchema.optional(),
    kinds: z.partialRecord(PolicyKindSchema, ApprovalPolicySchema).optional(),
  })
  .strict();
export type WorkflowApprovalPolicies = z.infer<typeof WorkflowApprovalPoliciesSchema>;

/** The policy that governs an approval of `kind`: the node's own, else the workflow's for the kind, else its default. */
export function policyFor(kind: string, nodePolicy: ApprovalPolicy | undefined, workflowPolicies: WorkflowApprovalPolicies | undefined): ApprovalPolicy {
  if (nodePolicy) return nodePolicy;
  const forKind = PolicyKindSchema.safeParse(kind).success ? workflowPolicies?.kinds?.[kind as PolicyKind] : undefined;
  return forKind ?? workflowPolicies?.default ?? ANYONE_WHO_MAY_DECIDE;
}

/** The policy of an approval of `kind` asked by `node` (of any kind: those that take approvals carry `approvals`). */
export function policyOfNode(kind: string, node: object | undefined, workflowPolicies: WorkflowApprovalPolicies | undefined): ApprovalPolicy {
  return policyFor(kind, node && "approvals" in node ? (node.approvals as ApprovalPolicy | undefined) : undefined, workflowPolicies);
}

/** Whether the run's starter is left out: as the policy says, else when two or more must approve. */
export function excludesStarter(policy: ApprovalPolicy): boolean {
  return policy.excludeStarter ?? policy.required >= 2;
}

/** A person as a policy sees them: who, and their roles (studio-wide and on the workflow). */
export interface PolicyDecider {
  personId: string | null;
  roles: readonly Role[];
}

/** A vote already cast toward the approval. */
export interface PolicyVote {
  personId: string | null;
  approve: boolean;
}

/**
 * Whether `decider` may cast a vote on an approval under `policy`, given who
 * started the run and the votes so far: null when they may, else the reason
 * in words (the 403's message, the card's read-only line).
 */
export function refusalUnderPolicy(
  policy: ApprovalPolicy,
  decider: PolicyDecider,
  startedById: string | null,
  votes: readonly PolicyVote[],
  nameOf: (personId: string) => string | undefined = () => undefined,
): string | null {
  if (policy.approvers.length > 0 && !policy.approvers.some((approver) => matches(approver, decider))) {
    return `Only ${describeApprovers(policy.approvers, nameOf)} may decide this approval.`;
  }
  if (excludesStarter(policy) && startedById !== null && decider.personId === startedById) {
    return "The person who started the run may not approve its own steps: someone else must decide.";
  }
  if (policy.required > 1 && decider.personId === null) {
    return `This approval needs ${policy.required} different people: decide it signed in as yourself, not with the studio's access token.`;
  }
  if (decider.personId !== null && votes.some((vote) => vote.personId === decider.personId)) {
    return "You have approved this already: it waits for someone else.";
  }
  return null;
}

/**
 * Why "Always allow" may not be given under `policy`, or null when it may: a
 * grant lets later writes go ahead without anyone, so only a decision that
 * one person makes alone can give it.
 */
export function alwaysAllowRefusal(policy: ApprovalPolicy): string | null {
  return policy.required > 1
    ? `This approval needs ${policy.required} different people: "Always allow" would let later writes skip them. Approve this one once.`
    : null;
}

/** How an approval stands after `votes`: approved once enough approve, denied at the first denial, else waiting. */
export function tally(policy: ApprovalPolicy, votes: readonly PolicyVote[]): "approved" | "denied" | "waiting" {
  if (votes.some((vote) => !vote.approve)) return "denied";
  return votes.length >= policy.required ? "approved" : "waiting";
}

function matches(approver: Approver, decider: PolicyDecider): boolean {
  return approver.kind === "role" ? decider.roles.includes(approver.role) : approver.personId === decider.personId;
}

/** "approvers, Ada or Bo": roles by their plural, people by the names `nameOf` gives (their id when it has none). */
export function describeApprovers(approvers: readonly Approver[], nameOf: (personId: string) => string | undefined = () => undefined): string {
  const words = approvers.map((approver) => (approver.kind === "role" ? `${approver.role}s` : (nameOf(approver.personId) ?? `the person ${approver.personId}`)));
  return words.length <= 1 ? (words[0] ?? "anyone who may decide approvals") : `${words.slice(0, -1).join(", ")} or ${words.at(-1)}`;
}

/**
 * The policy in force now and when it runs out: once escalated, the
 * escalation's approvers decide, with the escalation's time. `dueAt` is null
 * for a policy without a deadline.
 */
export function policyInForce(policy: ApprovalPolicy, createdAt: string, escalatedAt: string | null): { policy: ApprovalPolicy; dueAt: string | null; escalated: boolean } {
  const deadline = policy.deadline;
  if (!deadline) return { policy, dueAt: null, escalated: false };
  const after = (start: string, minutes: number) => new Date(Date.parse(start) + minutes * 60_000).toISOString();
  if (escalatedAt !== null && deadline.then === "escalate" && deadline.escalateTo && deadline.escalateMinutes !== undefined) {
    return { policy: { ...policy, approvers: deadline.escalateTo }, dueAt: after(escalatedAt, deadline.escalateMinutes), escalated: true };
  }
  return { policy, dueAt: after(createdAt, deadline.minutes), escalated: false };
}

/** What a deadline that ran out does to an approval of `kind`: escalate (once), answer a question, else deny. */
export function onDeadline(policy: ApprovalPolicy, kind: string, escalated: boolean): "escalate" | "answer" | "deny" {
  const then = policy.deadline?.then ?? "deny";
  if (then === "escalate" && !escalated) return "escalate";
  if (then === "answer" && kind === "ask") return "answer";
  return "deny";
}
