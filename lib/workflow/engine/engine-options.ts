/**
 * The engine's public shapes: what it is built with, a run as its creator just
 * wrote it, what an error workflow is told, how a drive ends, and the error of
 * a step a restart cut off. run-engine.ts re-exports them.
 */
import type { SecretResolver, ToolPool } from "@/lib/tools";
import type { RunLoop, RunSourceKind } from "@/lib/contracts/run";
import type { StepErrorKind } from "@/lib/contracts/execution-settings";
import type { RunTrigger } from "@/lib/contracts/run-trigger";
import type { RunEvent } from "@/lib/contracts/run-event";
import type { AgentModelFactory } from "../agent/agent-model";
import type { CarriedStep } from "../carry-over";
import type { ChildRuns } from "../child-runs";
import type { Clock } from "../clock";
import type { WorkflowDefinition } from "../definition";
import type { RunEventBus } from "../event-bus";
import type { RunStore } from "../run-types";

export interface RunEngineOptions {
  store: RunStore;
  bus: RunEventBus;
  /** The tools runs may use (built-ins, later MCP tools); asked per run. */
  pool: () => ToolPool;
  secrets: SecretResolver;
  /** Working directory for tools without a root setting; never the server's checkout. */
  workingDirectory?: string;
  log?: (message: string, error?: unknown) => void;
  /** Builds agent nodes' models; tests pass a mock. Default: the AI SDK providers. */
  agentModel?: AgentModelFactory;
  /** Look for decisions made by another process (the studio deciding a CLI-driven run) this often while a step waits. */
  decisionsElsewhereEveryMs?: number;
  /**
   * Let go of a run as soon as everything in it waits for a person (a worker
   * process: a waiting run holds no worker). The run's state is all stored; the
   * decision's job drives it again, and the replayed steps find their approvals.
   */
  parkWhenWaiting?: boolean;
  /** The time retries wait by and step time limits run by; tests pass a FakeClock. Default: the real clock. */
  clock?: Clock;
  /**
   * Starts the error workflow a failed run's workflow names (`errorWorkflowId`)
   * and resolves with its run's id, or null when none was started. Called
   * again for a run whose end a restart cut short: it must find the run it
   * started before rather than start a second. Absent: error workflows do not run.
   */
  startErrorWorkflow?: (failure: RunFailureReport) => Promise<string | null>;
  /** Starts and reads the runs Sub-workflow steps call; absent (a file run by the CLI): such steps fail saying so. */
  childRuns?: ChildRuns;
  /**
   * Keeps a step's whole result when it was cut to be stored and its workflow
   * keeps full outputs (`keepFullOutputs`); absent (a file run by the CLI):
   * only the stored part exists, and the notice does not offer more.
   */
  fullOutputs?: FullOutputKeeper;
  /**
   * Told of the events this engine stored, once each, in order, with the run they belong to: the process that drives
   * a step is the one that says so (lib/observability/run-tracing.ts turns them into spans). Absent: nothing is told.
   */
  observer?: RunObserver;
}

/** A run as an observer of its events sees it: what it is, and what its steps were before this process drove it. */
export interface ObservedRun {
  readonly runId: string;
  readonly workflowId: string;
  /** Its workflow's version; null when not known (a file run by the CLI). */
  readonly version: number | null;
  /** When it started; null when not known. */
  readonly startedAt: string | null;
  readonly trigger: RunTrigger;
  readonly inputs: Readonly<Record<string, unknown>>;
  readonly definition: WorkflowDefinition;
  readonly loop: RunLoop | null;
  /** Each node's current attempt. */
  readonly attempts: Readonly<Record<string, number>>;
  /** When each step stored as started when the run was loaded began its attempt (another process started it). */
  readonly stepsStartedAt: ReadonlyMap<string, string>;
}

/** Hears a run's stored events; must not throw, nor hold the run up. */
export interface RunObserver {
  observe(run: ObservedRun, events: readonly RunEvent[]): void;
}

/** Where whole results are kept beside their stored part (the studio: lib/persistence/kept-outputs.ts). */
export interface FullOutputKeeper {
  /** Keeps `json` (the whole result as JSON) as run `runId`'s node `nodeId`'s, replacing one kept before (a step run again after a restart). */
  keep(runId: string, nodeId: string, json: string): Promise<void>;
}

/** What an error workflow is told about the run that failed. */
export interface RunFailureReport {
  runId: string;
  workflowId: string;
  workflowName: string;
  errorWorkflowId: string;
  /** The first node whose failure stopped the run; null when the run as a whole failed (its plan rejected). */
  nodeId: string | null;
  error: string;
  errorKind: StepErrorKind | null;
}

/**
 * How `drive` ended: the run finished; it was let go (all of it waiting for a
 * person, or the caller's signal); or it was handed back at shutdown, its
 * in-flight steps finished, to be driven on elsewhere.
 */
export type DriveOutcome = "finished" | "parked" | "handed-back";

/** The error of a step that changes the world and was cut off by a restart while it ran (its kind: `interrupted`, never retried). */
export const INTERRUPTED =
  "Interrupted by a restart while it ran: it may or may not have taken effect, so it was not run again. Check what it was doing, then run the workflow again if needed.";

/** A run as its creator just wrote it (every node pending, no events yet). */
export interface CreatedRun {
  workflowId: string;
  /** Its workflow's version, and when it was created: what its trace says of it. */
  version?: number;
  startedAt?: string;
  definition: WorkflowDefinition;
  inputs: Record<string, unknown>;
  /** What started it (default: a person at the run inputs node). */
  trigger?: RunTrigger;
  /** What the trigger node received (a webhook's request), stored as that step's input. */
  triggerPayload?: unknown;
  /** The run it repeats, and how (a retry from the failure, a run again). */
  source?: { runId: string; kind: RunSourceKind } | null;
  /** Steps it keeps from that run (or, a test run, from pins and typed values), written succeeded with it: they do not run here. */
  carried?: readonly CarriedStep[];
  /** Nodes a test run leaves out, written skipped with it: they do not run here. */
  excluded?: readonly string[];
  /** For a For each item's run: its item (`definition` is the loop's body alone). */
  loop?: RunLoop | null;
}
