import { describe, expect, it } from "vitest";
import type { RunEvent } from "@/lib/workflow/run-types";
import { applyAgentEvent, type AgentActivity, type AgentEvent } from "./agent-activity";

// Loose payloads on purpose: these tests feed the fold what the contract (lib/contracts/run-event.ts) would have let through.
const event = (seq: number, type: AgentEvent["type"], payload: Record<string, unknown>): AgentEvent => ({
  runId: "r",
  seq,
  type,
  nodeId: "agent",
  payload,
  createdAt: "2026-11-30T00:00:00.000Z",
}) as RunEvent as AgentEvent;

describe("applyAgentEvent", () => {
  it("joins streamed text per turn and follows each call from start to result", () => {
    const events = [
      event(1, "node-text-delta", { turn: 1, text: "Let me " }),
      event(2, "node-text-delta", { turn: 1, text: "look." }),
      event(3, "node-tool-call-started", { turn: 1, callId: "c1", tool: "write_file", nodeId: "write", operation: null, arguments: { path: "a.txt" } }),
      event(4, "node-tool-call-finished", { turn: 1, callId: "c1", tool: "write_file", isError: true, content: "The person denied it.", approvals: [{ id: "a1", kind: "write", decision: "deny", feedback: "no" }] }),
      event(5, "node-text-delta", { turn: 2, text: "Done." }),
    ];
    const activity = events.reduce<AgentActivity | undefined>((state, each) => applyAgentEvent(state, each), undefined)!;
    expect(activity.text).toBe("Let me look.\n\nDone.");
    expect(activity.tokens).toBeUndefined();
    expect(activity.calls).toEqual([
      expect.objectContaining({ callId: "c1", status: "failed", result: "The person denied it.", arguments: { path: "a.txt" }, approvals: [expect.objectContaining({ decision: "deny" })] }),
    ]);
  });

  it("sums the tokens of the step's model calls", () => {
    const usage = [
      event(1, "node-model-usage", { turn: 1, provider: "openai", model: "m", inputTokens: 1200, outputTokens: 80, cachedInputTokens: 1000 }),
      event(2, "node-model-usage", { turn: 2, provider: "openai", model: "m", inputTokens: 1300, outputTokens: 20 }),
    ];
    const activity = usage.reduce<AgentActivity | undefined>((state, each) => applyAgentEvent(state, each), undefined)!;
    expect(activity.tokens).toEqual({ input: 2500, output: 100, cached: 1000, calls: 2, provider: "openai", model: "m" });
  });
});
