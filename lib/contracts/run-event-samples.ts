import type { ApprovalSummary } from "./approval";
import type { RunEvent, RunEventPayload, RunEventType } from "./run-event";

/**
 * One well-formed payload per event type, for tests. The mapped type makes
 * the type checker demand a sample for every type of the contract, so a new
 * type cannot be added without one, and the tests that walk these samples
 * (serialised by the SSE route, read by the client, applied and described by
 * the run view) then cover it.
 */
const approval: ApprovalSummary = {
  id: "approval-1",
  nodeId: "write",
  kind: "write",
  tool: "write_file",
  operation: null,
  arguments: { path: "notes/a.txt" },
  preview: "+hello",
  effect: { kind: "text", text: "+hello" },
  digest: "sha256:0",
  status: "pending",
  decision: null,
  feedback: null,
  decidedBy: null,
  decidedAt: null,
};
const call = { turn: 1, callId: "call-1", name: "write_file", tool: "write_file", nodeId: "write", operation: null, arguments: { path: "a.txt" } };

export const SAMPLE_PAYLOADS: { [Type in RunEventType]: RunEventPayload<Type> } = {
  "run-started": { inputs: { name: "Ada" } },
  "run-resumed": {},
  "run-awaiting-input": { approvalId: approval.id },
  "run-succeeded": { output: "done" },
  "run-failed": { error: "Write a File failed: no space left", errorWorkflowRunId: "r2" },
  "run-cancelled": { error: "Cancelled.", cancelledBy: "Ada" },
  "node-started": { kind: "tool", attempt: 1, maxAttempts: 3, tool: "write_file", operation: null },
  "node-retry-scheduled": {
    attempt: 1,
    maxAttempts: 3,
    error: "Could not reach GET https://example.com/: the connection was reset.",
    errorKind: "network",
    delayMs: 1000,
    retryAt: "2026-12-01T00:00:01.000Z",
  },
  "node-progress": { message: "Halfway there" },
  "node-notified": { message: "Heads up" },
  "node-succeeded": { output: { content: "Wrote a.txt" }, durationMs: 12 },
  "child-run-started": { runId: "r1", workflowId: "w1", workflowName: "Child", version: 2 },
  "node-carried-over": { fromRunId: "r0", output: { content: "Wrote a.txt" } },
  "node-failed": { error: "no space left", durationMs: 3, errorKind: "failed", handledBy: "error-edge" },
  "node-skipped": { reason: "attached", agent: "agent" },
  "node-model-usage": { turn: 1, provider: "openai", model: "gpt-4.1-mini", inputTokens: 1200, outputTokens: 85, cachedInputTokens: 1000, durationMs: 840 },
  "node-text-delta": { turn: 1, text: "Hello" },
  "node-tool-call-started": call,
  "node-tool-call-finished": { ...call, isError: false, content: "Wrote a.txt", approvals: [] },
  "approval-requested": { approval },
  "approval-voted": { approvalId: approval.id, by: "Ada", approvals: 1, required: 2 },
  "approval-escalated": { approvalId: approval.id },
  "approval-notified": {
    approvalId: approval.id,
    notification: { id: "n1", channel: "email", to: "Ada", address: "ada@example.com", round: "requested", status: "sent", attempts: 1, lastError: null },
  },
  "approval-viewed": { approvalId: approval.id, viewId: "view-1", by: "Ada" },
  "approval-decided": { approval: { ...approval, status: "approved", decision: "once", decidedBy: { personId: "person-ada", name: "Ada" }, decidedAt: "2026-12-01T00:00:01.000Z" }, requestedAt: "2026-12-01T00:00:00.000Z" },
};

/** Every sample as a stored event of run `r1`, numbered 1, 2, 3, … in the contract's order. */
export function sampleEvents(nodeId = "write"): RunEvent[] {
  return (Object.keys(SAMPLE_PAYLOADS) as RunEventType[]).map(
    (type, index) =>
      ({
        runId: "r1",
        seq: index + 1,
        type,
        nodeId: type.startsWith("run-") ? null : nodeId,
        payload: SAMPLE_PAYLOADS[type],
        createdAt: "2026-12-01T00:00:00.000Z",
      }) as RunEvent,
  );
}
