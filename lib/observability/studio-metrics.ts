/**
 * The studio's metrics in the Prometheus text format (GET /metrics, through
 * prom-client): runs started by trigger and finished by status, step
 * durations by node kind, tool and outcome, approvals asked and decided,
 * agents' model tokens by provider and model, webhook deliveries by status, and,
 * read from the database when scraped, the approvals waiting now with the
 * age of the oldest, the runs not finished and, scaled out, the run queue's
 * jobs waiting and driven. Counting is a counter
 * increment per run event, nothing more; the database is asked only when
 * someone scrapes. Node's own process metrics (memory, event loop delay, GC)
 * come with it. Knows nothing of Next or Prisma: the database is behind
 * `MetricsSources`.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { RunEvent } from "@/lib/contracts/run-event";

/** What is read from the database when the metrics are scraped. */
export interface MetricsSources {
  /** Approvals waiting for a person now, and when the oldest of them was asked (null: none waits). */
  approvalsWaiting: () => Promise<{ count: number; oldestAskedAt: Date | null }>;
  /** Runs not finished, by status (running, awaiting_input). */
  runsUnfinished: () => Promise<Record<string, number>>;
  /** Scaled out (PostgreSQL): the run queue's jobs waiting for a worker's slot, and those a slot drives now. */
  runJobs?: () => Promise<{ waiting: number; active: number }>;
}

/** Step durations from 10 ms to 30 minutes: a tool call, a command, an agent's work. */
const STEP_SECONDS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800];

/** A step's kind and tool, noted when it starts, until it ends. */
interface StepLabels {
  kind: string;
  tool: string;
}

export class StudioMetrics {
  readonly registry = new Registry();
  private readonly runsStarted: Counter<"trigger">;
  private readonly runsFinished: Counter<"status">;
  private readonly stepDuration: Histogram<"kind" | "tool" | "status">;
  private readonly approvalsRequested: Counter;
  private readonly approvalsDecided: Counter<"status">;
  private readonly modelTokens: Counter<"provider" | "model" | "kind">;
  private readonly webhookDeliveries: Counter<"address" | "status">;
  /** The waiting approvals as read for the scrape under way: both of their gauges come from one query. */
  private waiting: Promise<{ count: number; oldestAskedAt: Date | null }> | null = null;
  /** The run queue's counts as read for the scrape under way (both of its gauges come from one query). */
  private jobs: Promise<{ waiting: number; active: number }> | null = null;
  /** By run, then node: what each running step is (its end event names neither). Dropped when the run ends. */
  private readonly running = new Map<string, Map<string, StepLabels>>();

  constructor(sources: MetricsSources) {
    const registers = [this.registry];
    this.runsStarted = new Counter({ name: "studio_runs_started_total", help: "Runs started, by what started them.", labelNames: ["trigger"], registers });
    this.runsFinished = new Counter({ name: "studio_runs_finished_total", help: "Runs finished, by how they ended.", labelNames: ["status"], registers });
    this.stepDuration = new Histogram({
      name: "studio_step_duration_seconds",
      help: "How long steps took, by node kind, tool (empty for building blocks) and outcome.",
      labelNames: ["kind", "tool", "status"],
      buckets: STEP_SECONDS,
      registers,
    });
    this.approvalsRequested = new Counter({ name: "studio_approvals_requested_total", help: "Approvals asked of a person.", registers });
    this.approvalsDecided = new Counter({
      name: "studio_approvals_decided_total",
      help: "Approvals decided (approved, denied, answered) or withdrawn (cancelled).",
      labelNames: ["status"],
      registers,
    });
    const waiting = () => (this.waiting ??= sources.approvalsWaiting());
    this.modelTokens = new Counter({
      name: "studio_model_tokens_total",
      help: "Tokens agents' model calls used, as providers reported them: kind input (cached ones included), cached, or output.",
      labelNames: ["provider", "model", "kind"],
      registers,
    });
    new Gauge({
      name: "studio_approvals_waiting",
      help: "Approvals waiting for a person now.",
      registers,
      async collect() {
        this.set((await waiting()).count);
      },
    });
    new Gauge({
      name: "studio_approval_oldest_waiting_seconds",
      help: "How long the oldest waiting approval has waited (0 when none waits).",
      registers,
      async collect() {
        const { oldestAskedAt } = await waiting();
        this.set(oldestAskedAt ? Math.max(0, (Date.now() - oldestAskedAt.getTime()) / 1000) : 0);
      },
    });
    new Gauge({
      name: "studio_runs_unfinished",
      help: "Runs not finished now, by status.",
      labelNames: ["status"],
      registers,
      async collect() {
        this.reset();
        for (const [status, count] of Object.entries(await sources.runsUnfinished())) this.set({ status }, count);
      },
    });
    this.webhookDeliveries = new Counter({
      name: "studio_webhook_deliveries_total",
      help: "Requests to webhook addresses, by address (live /hooks/, test /hooks-test/) and the HTTP status answered.",
      labelNames: ["address", "status"],
      registers,
    });
    if (sources.runJobs) this.watchRunQueue(sources.runJobs);
    collectDefaultMetrics({ register: this.registry, prefix: "studio_" });
  }

  /** The run queue's gauges, read in one query per scrape. */
  private watchRunQueue(runJobs: () => Promise<{ waiting: number; active: number }>): void {
    const counts = () => (this.jobs ??= runJobs());
    const registers = [this.registry];
    new Gauge({
      name: "studio_run_jobs_waiting",
      help: "Runs waiting in the queue for a worker's slot (a retry not yet due among them).",
      registers,
      async collect() {
        this.set((await counts()).waiting);
      },
    });
    new Gauge({
      name: "studio_run_jobs_active",
      help: "Runs a worker's slot drives now: the slots in use across the workers.",
      registers,
      async collect() {
        this.set((await counts()).active);
      },
    });
  }

  /** Counts one answer to a webhook address. */
  webhookDelivered(address: string, status: number): void {
    this.webhookDeliveries.inc({ address, status: String(status) });
  }

  /** Counts one run event: called for every event this process hears of. */
  record(event: RunEvent): void {
    switch (event.type) {
      case "run-started":
        this.runsStarted.inc({ trigger: event.payload.trigger?.kind ?? "person" });
        break;
      case "run-succeeded":
      case "run-failed":
      case "run-cancelled":
        this.runsFinished.inc({ status: event.type.slice("run-".length) });
        this.running.delete(event.runId);
        break;
      case "node-started": {
        let steps = this.running.get(event.runId);
        if (!steps) this.running.set(event.runId, (steps = new Map()));
        steps.set(event.nodeId ?? "", { kind: event.payload.kind, tool: event.payload.tool ?? "" });
        break;
      }
      case "node-succeeded":
      case "node-failed": {
        const steps = this.running.get(event.runId);
        const labels = steps?.get(event.nodeId ?? "") ?? { kind: "unknown", tool: "" };
        steps?.delete(event.nodeId ?? "");
        this.stepDuration.observe({ ...labels, status: event.type === "node-succeeded" ? "succeeded" : "failed" }, event.payload.durationMs / 1000);
        break;
      }
      case "approval-requested":
        this.approvalsRequested.inc();
        break;
      case "node-model-usage": {
        const { provider, model, inputTokens, outputTokens, cachedInputTokens } = event.payload;
        this.modelTokens.inc({ provider, model, kind: "input" }, inputTokens);
        this.modelTokens.inc({ provider, model, kind: "output" }, outputTokens);
        if (cachedInputTokens) this.modelTokens.inc({ provider, model, kind: "cached" }, cachedInputTokens);
        break;
      }
      case "approval-decided":
        this.approvalsDecided.inc({ status: event.payload.approval.status });
        break;
    }
  }

  /** The metrics in Prometheus' text format. */
  async text(): Promise<string> {
    this.waiting = this.jobs = null;
    try {
      return await this.registry.metrics();
    } finally {
      this.waiting = this.jobs = null;
    }
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
