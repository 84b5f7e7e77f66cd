import type { ApprovalDetail } from "@/lib/contracts/approval";

/** A waiting shell approval of "Deploy" as the notifications' tests read it; `overrides` change what a test is about. */
export function sampleApproval(overrides: Partial<ApprovalDetail> = {}): ApprovalDetail {
  return {
    id: "appr_1",
    runId: "run_1",
    nodeId: "shell",
    key: "k",
    kind: "shell",
    tool: "run_command",
    operation: "run",
    arguments: { command: "rm -rf build", token: "********" },
    preview: "rm -rf build",
    effect: { kind: "command", command: "rm -rf build" } as unknown as ApprovalDetail["effect"],
    digest: "d",
    status: "pending",
    decision: null,
    feedback: null,
    decidedBy: null,
    decidedAt: null,
    createdAt: "2026-12-04T10:00:00.000Z",
    workflowId: "wf_1",
    workflowName: "Deploy",
    calledBy: null,
    nodeLabel: "Clean up",
    runStatus: "awaiting_input",
    policy: { approvers: [], required: 2, deadline: { minutes: 30, then: "deny" } },
    votes: [],
    startedById: "olga",
    dueAt: "2026-12-04T10:30:00.000Z",
    escalatedAt: null,
    notifications: [],
    ...overrides,
  };
}
