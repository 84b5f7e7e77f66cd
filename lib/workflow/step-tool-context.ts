import {
  createToolContext,
  type Guardrails,
  type PermissionMode,
  type SecretResolver,
  type Tool,
  type ToolContext,
  type ToolEventSink,
  type WriteGrant,
} from "@/lib/tools";
import type { RunEventPayload, RunEventType } from "@/lib/contracts/run-event";
import { ApprovalIOHandler, type ApprovalWaiter } from "./approvals/approval-io-handler";
import { resolveTemplates, type TemplateScope } from "./templates";

/**
 * How a workflow step calls a tool, shared by a Tool step and an agent's tool
 * calls so that the two cannot drift apart in what a tool may do in a run.
 */

/** What of its run a step passes on to the tool it calls. */
export interface StepToolRun {
  runId: string;
  workingDirectory: string;
  signal: AbortSignal;
  secrets: SecretResolver;
  guardrails: Guardrails;
  grants: WriteGrant[];
  emit: <Type extends RunEventType>(type: Type, payload: RunEventPayload<Type>) => Promise<void>;
}

/** One call: the tool, what the approval inbox shows of it, and the step's own choices. */
export interface StepToolCall {
  tool: Tool;
  operation: string | null;
  /** The arguments as approvals record them (secret inputs masked). */
  recordedArguments: Record<string, unknown>;
  settings: Record<string, unknown>;
  /** The run's approval inbox, as the step watches it. */
  waitFor: ApprovalWaiter;
  /** Names the call's approvals, so a replay of the step finds them again. */
  approvals: { nodeId: string; keyPrefix?: string };
  events: ToolEventSink;
  /** Kept between the calls of one step (an agent's todo list). */
  extra?: Record<string, unknown>;
  mode: PermissionMode;
  planApproved: boolean;
  persistGrant: (grant: WriteGrant) => Promise<void>;
}

/** The arguments a tool is called with: the node's, resolved against the run so far, with the node's operation. */
export function boundArgumentsOf(
  nodeArguments: Record<string, unknown>,
  operation: string | null | undefined,
  scope: TemplateScope,
): Record<string, unknown> {
  const resolved = resolveTemplates(nodeArguments, scope) as Record<string, unknown>;
  return operation ? { ...resolved, operation } : resolved;
}

/**
 * The tool context of a call in a run: its questions and permission requests
 * wait in the approval inbox, its notifications become node-notified events,
 * and it works in the run's folder with the run's signal, secrets, guardrails
 * and write grants.
 */
export function stepToolContext(run: StepToolRun, call: StepToolCall): ToolContext {
  const io = new ApprovalIOHandler(
    call.waitFor,
    { runId: run.runId, ...call.approvals },
    { tool: call.tool, operation: call.operation, arguments: call.recordedArguments },
    (message) => run.emit("node-notified", { message }),
  );
  return createToolContext({
    io,
    cwd: run.workingDirectory,
    settings: call.settings,
    signal: run.signal,
    secrets: run.secrets,
    events: call.events,
    extra: call.extra ?? {},
    permissions: { mode: call.mode, guardrails: run.guardrails, planApproved: call.planApproved, grants: run.grants, persistGrant: call.persistGrant },
  });
}
