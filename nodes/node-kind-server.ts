import type { Guardrails, PermissionMode, SecretResolver, ToolPool, WriteGrant } from "@/lib/tools";
import type { AgentModelFactory } from "@/lib/workflow/agent/agent-model";
import type { ApprovalWaiter } from "@/lib/workflow/approvals/approval-io-handler";
import type { ChildRunOutcome, ChildRuns } from "@/lib/workflow/child-runs";
import type { ToolNode, WorkflowDefinition } from "@/lib/workflow/definition";
import type { ReadWriteLock } from "@/lib/workflow/read-write-lock";
import type { RunEventPayload, RunEventType } from "@/lib/contracts/run-event";
import type { RunTrigger } from "@/lib/contracts/run-trigger";
import type { RunStore, StepOutput } from "@/lib/workflow/run-types";
import type { WorkflowGraph } from "@/lib/workflow/scheduler";
import type { TemplateScope } from "@/lib/workflow/templates";
import type { WorkflowProblem, WorkflowRequirement } from "@/lib/contracts/workflow-problem";
import type { WorkflowLookup } from "@/lib/workflow/validate-failures";
import type { NodeShape } from "./node-kind";

// What the server knows of a node kind: how to check one, and how to run one.
// Server-only (the tool framework reaches node:fs, agents the AI SDK): never
// import this, nodes/server.ts or a nodes/<kind>/server.ts from the editor.

/** What validateWorkflow (lib/workflow/validate.ts) gives a kind to check one of its nodes. */
export interface NodeValidationContext {
  definition: WorkflowDefinition;
  graph: WorkflowGraph;
  pool: ToolPool;
  /** Looks up stored secrets, to tell set from usable. */
  secrets: SecretResolver;
  /** Append to these in the order things are found: the editor lists problems in that order. */
  problems: WorkflowProblem[];
  requirements: WorkflowRequirement[];
  /** Finds other saved workflows (the error workflow, a Sub-workflow's callee); absent (a file run by the CLI): those checks are left out. */
  workflows?: WorkflowLookup;
  /**
   * Reports, on `field`, references to inputs the run lacks, to nodes not
   * upstream of this one and template syntax errors in `value`.
   */
  checkTemplates: (value: unknown, field: string) => void;
}

/** What a step produced, and what it was given (recorded on the step; null when nothing worth keeping). */
export interface StepResult {
  output: StepOutput;
  input: unknown;
}

/**
 * What the engine (lib/workflow/run-engine.ts) gives a kind to run one node of
 * a run. The engine keeps the lifecycle: it announces the start, records the
 * result, and turns a thrown StepFailure, RunCancelled or TemplateError into
 * the node's error (lib/workflow/step-errors.ts).
 */
export interface NodeExecutionContext {
  runId: string;
  workflowId: string;
  /** The run's inputs, as the run was started with them. */
  inputs: Record<string, unknown>;
  /** What started the run. */
  trigger: RunTrigger;
  /** What the trigger node received (a webhook's request); null for runs a person started. */
  triggerPayload: unknown;
  /** What templates see now: the inputs and every finished node's output. */
  scope: () => TemplateScope;
  /**
   * Whether a result in the scope is one this node may read: a node upstream of it, or one not of this run (a loop
   * item's run carries the results from before its loop). A step that reads the scope by code, not by templates
   * validation checked, keeps to these, so what it sees does not depend on which parallel branch finished first.
   */
  readsFrom: (nodeId: string) => boolean;
  store: RunStore;
  /** The tools this run may use; asked when needed. */
  pool: () => ToolPool;
  secrets: SecretResolver;
  /** Working directory for tools without a root setting. */
  workingDirectory: string;
  /** The workflow's permission mode and guardrails. */
  mode: PermissionMode;
  guardrails: Guardrails;
  /** Whether a person approved the run's plan (plan mode). */
  planApproved: boolean;
  /** Write grants given to this workflow ("allow from now on"); a tool adds to them. */
  grants: WriteGrant[];
  persistGrant: (grant: WriteGrant) => Promise<void>;
  /** Tools that are not concurrency-safe take it exclusively. */
  lock: ReadWriteLock;
  /** Aborted when the run is cancelled or stops. */
  signal: AbortSignal;
  /** Whether the run was cancelled; a step that finds so after waiting throws RunCancelled. */
  cancelled: () => boolean;
  /** Asks a person through the approval inbox and waits for the decision; the node shows waiting meanwhile. */
  waitFor: ApprovalWaiter;
  /** Which attempt of the step this is (1, 2, …); a replay of an attempt after a restart keeps its number. */
  attempt: number;
  /** Starts and reads runs of other workflows (a Sub-workflow step); absent where runs cannot call workflows (a file run by the CLI). */
  childRuns?: ChildRuns;
  /**
   * Waits, stored as waiting, for the child run `childRunId` to finish. With
   * workers the run is let go meanwhile (ParkedRun) and the child's end drives
   * it on; a cancel of this run ends the wait with RunCancelled.
   */
  waitForChildRun: (childRunId: string) => Promise<ChildRunOutcome>;
  /** Persists and publishes an event about this node. */
  emit: <Type extends RunEventType>(type: Type, payload: RunEventPayload<Type>) => Promise<void>;
  log: (message: string, error?: unknown) => void;
  /** The tool nodes attached to this node (edges from tools into an agent). */
  attachedTools: () => ToolNode[];
  /** Builds agent models; tests pass a mock. Absent: the AI SDK providers. */
  agentModel?: AgentModelFactory;
}

/** One node kind's server side: registered in nodes/server.ts. */
export interface NodeKindServer<Node extends NodeShape> {
  /** Adds the node's problems and requirements; the workflow-level checks (structure, cycles, reachability) run before. */
  validate: (node: Node, context: NodeValidationContext) => void | Promise<void>;
  /** Runs the node; throws StepFailure (or RunCancelled) to fail it. */
  execute: (node: Node, context: NodeExecutionContext) => StepResult | Promise<StepResult>;
}
