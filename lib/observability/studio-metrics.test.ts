import { describe, expect, it } from "vitest";
import type { NewRunEvent, RunEvent } from "@/lib/contracts/run-event";
import { StudioMetrics } from "./studio-metrics";

let seq = 0;
const event = (runId: string, body: NewRunEvent): RunEvent => ({ ...body, runId, seq: ++seq, createdAt: new Date().toISOString() }) as RunEvent;

function metrics(waiting = { count: 0, oldestAskedAt: null as Date | null }) {
  let asked = 0;
  const studio = new StudioMetrics({
    approvalsWaiting: async () => {
      asked += 1;
      return waiting;
    },
    runsUnfinished: async () => ({ running: 2, awaiting_input: 1 }),
  });
  return { studio, asked: () => asked };
}

describe("the studio's metrics", () => {
  it("count a run's start, its steps by kind and tool, and its end, from its events", async () => {
    const { studio } = metrics();
    studio.record(event("r1", { type: "run-started", nodeId: null, payload: { inputs: {}, trigger: { kind: "webhook" } as never } }));
    studio.record(event("r1", { type: "node-started", nodeId: "list", payload: { kind: "tool", attempt: 1, tool: "list_dir" } }));
    studio.record(event("r1", { type: "node-started", nodeId: "out", payload: { kind: "output", attempt: 1 } }));
    studio.record(event("r1", { type: "node-succeeded", nodeId: "list", payload: { output: { content: "" } as never, durationMs: 30 } }));
    studio.record(event("r1", { type: "node-failed", nodeId: "out", payload: { error: "no", durationMs: 2_000 } }));
    studio.record(event("r1", { type: "node-model-usage", nodeId: "agent", payload: { turn: 1, provider: "openai", model: "gpt-4.1-mini", inputTokens: 1200, outputTokens: 80, cachedInputTokens: 1000 } }));
    studio.record(event("r1", { type: "node-model-usage", nodeId: "agent", payload: { turn: 2, provider: "openai", model: "gpt-4.1-mini", inputTokens: 300, outputTokens: 20 } }));
    studio.record(event("r1", { type: "run-failed", nodeId: null, payload: { error: "no" } }));
    const text = await studio.text();
    expect(text).toContain('studio_runs_started_total{trigger="webhook"} 1');
    expect(text).toContain('studio_runs_finished_total{status="failed"} 1');
    expect(text).toContain('studio_step_duration_seconds_bucket{le="0.05",kind="tool",tool="list_dir",status="succeeded"} 1');
    expect(text).toContain('studio_step_duration_seconds_bucket{le="1",kind="output",tool="",status="failed"} 0');
    expect(text).toContain('studio_step_duration_seconds_bucket{le="2.5",kind="output",tool="",status="failed"} 1');
    expect(text).toContain('studio_runs_unfinished{status="awaiting_input"} 1');
    expect(text).toContain('studio_model_tokens_total{provider="openai",model="gpt-4.1-mini",kind="input"} 1500');
    expect(text).toContain('studio_model_tokens_total{provider="openai",model="gpt-4.1-mini",kind="output"} 100');
    expect(text).toContain('studio_model_tokens_total{provider="openai",model="gpt-4.1-mini",kind="cached"} 1000');
  });

  it("asks the database once per scrape, only when scraped, and forgets a run's steps when it ends", async () => {
    const { studio, asked } = metrics({ count: 3, oldestAskedAt: new Date(Date.now() - 90_000) });
    studio.record(event("r2", { type: "node-started", nodeId: "a", payload: { kind: "tool", attempt: 1, tool: "http" } }));
    studio.record(event("r2", { type: "run-cancelled", nodeId: null, payload: { error: null } }));
    // Its start is forgotten with its run: an end heard after that is counted as of an unknown kind.
    studio.record(event("r2", { type: "node-failed", nodeId: "a", payload: { error: "stopped", durationMs: 5 } }));
    expect(asked()).toBe(0);
    const text = await studio.text();
    expect(asked()).toBe(1);
    expect(text).toContain("studio_approvals_waiting 3");
    expect(Number(/^studio_approval_oldest_waiting_seconds (\S+)$/m.exec(text)![1])).toBeGreaterThanOrEqual(90);
    expect(text).toContain('studio_step_duration_seconds_count{kind="unknown",tool="",status="failed"} 1');
    await studio.text();
    expect(asked()).toBe(2);
  });

  it("count webhook answers by address and status, and read the run queue's two gauges in one query per scrape", async () => {
    let counted = 0;
    const studio = new StudioMetrics({
      approvalsWaiting: async () => ({ count: 0, oldestAskedAt: null }),
      runsUnfinished: async () => ({}),
      runJobs: async () => {
        counted += 1;
        return { waiting: 4, active: 2 };
      },
    });
    studio.webhookDelivered("live", 202);
    studio.webhookDelivered("live", 202);
    studio.webhookDelivered("test", 404);
    const text = await studio.text();
    expect(text).toContain('studio_webhook_deliveries_total{address="live",status="202"} 2');
    expect(text).toContain('studio_webhook_deliveries_total{address="test",status="404"} 1');
    expect(text).toContain("studio_run_jobs_waiting 4");
    expect(text).toContain("studio_run_jobs_active 2");
    expect(counted).toBe(1);
    // Without a queue (one process on SQLite) there are no queue gauges at all.
    expect(await metrics().studio.text()).not.toContain("studio_run_jobs");
  });
});
