import { describe, expect, it } from "vitest";
import { ApprovalPolicySchema, describeApprovers, policyFor, refusalUnderPolicy, tally, WorkflowApprovalPoliciesSchema, type ApprovalPolicy } from "./approval-policy";

const policy = (input: object): ApprovalPolicy => ApprovalPolicySchema.parse(input);
const ada = { personId: "ada", roles: ["approver"] as const };
const bo = { personId: "bo", roles: ["editor"] as const };

describe("approval policies", () => {
  it("picks the node's policy, else the workflow's for the kind, else its default, else anyone who may decide", () => {
    const workflow = WorkflowApprovalPoliciesSchema.parse({ default: { required: 1, approvers: [{ kind: "role", role: "admin" }] }, kinds: { shell: { required: 2 } } });
    const node = policy({ approvers: [{ kind: "person", personId: "ada" }] });
    expect(policyFor("shell", node, workflow)).toBe(node);
    expect(policyFor("shell", undefined, workflow).required).toBe(2);
    expect(policyFor("write", undefined, workflow).approvers).toEqual([{ kind: "role", role: "admin" }]);
    // A question is not a destructive kind: it follows the default.
    expect(policyFor("ask", undefined, workflow).approvers).toEqual([{ kind: "role", role: "admin" }]);
    expect(policyFor("write", undefined, undefined)).toEqual({ approvers: [], required: 1 });
  });

  it("lets only the named roles and people decide, and says who may", () => {
    const named = policy({ approvers: [{ kind: "role", role: "approver" }, { kind: "person", personId: "cy" }] });
    expect(refusalUnderPolicy(named, ada, null, [])).toBeNull();
    expect(refusalUnderPolicy(named, { personId: "cy", roles: ["viewer"] }, null, [])).toBeNull();
    expect(refusalUnderPolicy(named, bo, null, [])).toBe("Only approvers or the person cy may decide this approval.");
    expect(describeApprovers(named.approvers, (id) => (id === "cy" ? "Cy" : undefined))).toBe("approvers or Cy");
  });

  it("leaves the starter out when two must approve, or when the policy says so, and never counts one person twice", () => {
    const two = policy({ required: 2 });
    expect(refusalUnderPolicy(two, ada, "ada", [])).toMatch(/started the run/);
    expect(refusalUnderPolicy(policy({ required: 2, excludeStarter: false }), ada, "ada", [])).toBeNull();
    expect(refusalUnderPolicy(policy({ excludeStarter: true }), ada, "ada", [])).toMatch(/started the run/);
    expect(refusalUnderPolicy(policy({}), ada, "ada", [])).toBeNull();
    expect(refusalUnderPolicy(two, ada, "bo", [{ personId: "ada", approve: true }])).toMatch(/already/);
    expect(refusalUnderPolicy(two, { personId: null, roles: ["owner"] }, "bo", [])).toMatch(/signed in as yourself/);
  });

  it("approves once enough different people approve, and one denial ends it", () => {
    const two = policy({ required: 2 });
    expect(tally(two, [])).toBe("waiting");
    expect(tally(two, [{ personId: "ada", approve: true }])).toBe("waiting");
    expect(tally(two, [{ personId: "ada", approve: true }, { personId: "cy", approve: true }])).toBe("approved");
    expect(tally(two, [{ personId: "ada", approve: true }, { personId: "cy", approve: false }])).toBe("denied");
    expect(tally(policy({}), [{ personId: "ada", approve: true }])).toBe("approved");
  });

  it("refuses a policy that is not one, naming the field", () => {
    const tooMany = ApprovalPolicySchema.safeParse({ required: 9 });
    expect(tooMany.error?.issues[0]).toMatchObject({ path: ["required"], message: "at most 5 approvals" });
    expect(ApprovalPolicySchema.safeParse({ approvers: [{ kind: "role", role: "king" }] }).success).toBe(false);
    expect(ApprovalPolicySchema.safeParse({ required: 1, ownerId: "x" }).error?.issues[0]).toMatchObject({ code: "unrecognized_keys" });
  });
});
