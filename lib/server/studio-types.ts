// The studio's shape, apart from studio.ts (which boots it) so that the modules the boot uses, and which are handed
// the studio (hooks, MCP servers), can name it without importing studio.ts back.
import type { StudioMetrics } from "@/lib/observability/studio-metrics";
import type { McpConnectionManager } from "@/lib/mcp";
import type { SecretResolver, ToolPool } from "@/lib/tools";
import type { StudioDatabase } from "@/lib/persistence";
import type { KeyedListeners, RunEventBus } from "@/lib/workflow/event-bus";
import type { RunEngine } from "@/lib/workflow/run-engine";
import type { DeadlineJob } from "./approval-deadlines";
import type { EvaluationRunner } from "./evaluations/evaluation-runner";
import type { RetentionJob } from "./retention";
import type { RunDriver } from "./run-driver";
import type { Scheduler } from "./schedules/scheduler";

/** What a process does: serve the studio and drive runs (`all`), only serve (`web`), or only drive runs (`worker`). */
export type StudioRole = "all" | "web" | "worker";

/** The server-side pieces every route shares: one of each per process. */
export interface Studio {
  database: StudioDatabase;
  bus: RunEventBus;
  /** Woken (by listen id) when a webhook test listen changed, here or, on PostgreSQL, in another process: its stream reads the row again. */
  testListens: KeyedListeners<void>;
  engine: RunEngine;
  /** Built-in tools plus the enabled MCP servers' tools, as of now. */
  pool: () => ToolPool;
  secrets: SecretResolver;
  mcp: McpConnectionManager;
  /** Brings the MCP connections in line with the stored servers; call after changing them. */
  reloadMcp: () => Promise<void>;
  /** Starts and cancels runs: this process's engine, or the job queue on PostgreSQL. */
  runs: RunDriver;
  role: StudioRole;
  /** Fires the published workflows' schedules; null in a process that only serves (`web`). */
  schedules: Scheduler | null;
  /** Removes old runs as the retention settings say; null in a process that only serves (`web`). */
  retention: RetentionJob | null;
  /** Ends or escalates approvals nobody decided in time; null in a process that only serves (`web`). */
  deadlines: DeadlineJob | null;
  /** Starts evaluations' rows and scores them; null in a process that only serves (`web`): a worker's picks new ones up. */
  evaluations: EvaluationRunner | null;
  /** The studio's metrics (GET /metrics), counted from the run events this process hears of. */
  metrics: StudioMetrics;
  /** Stops working on runs (in-flight steps get `graceMs` to finish) and closes the queue's connections. */
  shutdown: (graceMs: number) => Promise<void>;
}
