"use client";

import { POLICY_KINDS, type ApprovalPolicy, type PolicyKind, type WorkflowApprovalPolicies } from "@/lib/contracts/approval-policy";
import { ApprovalPolicyEditor, useColleagues } from "./approval-policy-editor";

/** Each kind of step that asks, as the workflow settings name it. */
const KIND_LABELS: Record<PolicyKind, string> = {
  write: "File changes",
  shell: "Shell commands",
  network: "Network calls",
  mcp: "MCP tools",
  plan: "Plans",
};

const ANYONE = "anyone who may decide approvals on this workflow, one of them.";

/**
 * The workflow settings' "Who approves": a default policy and one per kind of
 * step that asks; a step may still set its own in its inspector.
 */
export function ApprovalPoliciesSection({ value, onChange }: { value: WorkflowApprovalPolicies | undefined; onChange: (value: WorkflowApprovalPolicies | undefined) => void }) {
  const colleagues = useColleagues();
  const change = (next: WorkflowApprovalPolicies) => {
    const kinds = Object.fromEntries(Object.entries(next.kinds ?? {}).filter(([, policy]) => policy !== undefined));
    const stored: WorkflowApprovalPolicies = { ...(next.default ? { default: next.default } : {}), ...(Object.keys(kinds).length > 0 ? { kinds } : {}) };
    onChange(Object.keys(stored).length > 0 ? stored : undefined);
  };
  const setKind = (kind: PolicyKind, policy: ApprovalPolicy | undefined) => change({ ...value, kinds: { ...value?.kinds, [kind]: policy } });
  return (
    <div className="space-y-3">
      <ApprovalPolicyEditor label="Every approval" value={value?.default} inherited={ANYONE} colleagues={colleagues} onChange={(policy) => change({ ...value, default: policy })} />
      {POLICY_KINDS.map((kind) => (
        <ApprovalPolicyEditor key={kind} label={KIND_LABELS[kind]} value={value?.kinds?.[kind]} inherited="as every approval." colleagues={colleagues} onChange={(policy) => setKind(kind, policy)} />
      ))}
    </div>
  );
}

/** The inspector's "Who approves" of one step: its own policy, or the workflow's. */
export function NodeApprovalPolicy({ value, onChange }: { value: ApprovalPolicy | undefined; onChange: (value: ApprovalPolicy | undefined) => void }) {
  const colleagues = useColleagues();
  return <ApprovalPolicyEditor label="This step" value={value} inherited="the workflow's rule for its kind." colleagues={colleagues} onChange={onChange} />;
}
