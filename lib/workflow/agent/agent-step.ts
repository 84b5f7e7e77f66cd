import {
  lookUpSecret,
  parseSecretReference,
  type Guardrails,
  type PermissionMode,
  type SecretResolver,
  type Tool,
  type ToolEventSink,
  type ToolPool,
  type WriteGrant,
} from "@/lib/tools";
import type { ApprovalWaiter } from "../approvals/approval-io-handler";
import type { AgentNode, ToolNode } from "../definition";
import type { ReadWriteLock } from "../read-write-lock";
import type { RunEventPayload, RunEventType } from "@/lib/contracts/run-event";
import { nodeProgressOf } from "../node-progress";
import type { RunStore, StepOutput } from "../run-types";
import { asText, resolveTemplates, type TemplateScope } from "../templates";
import type { AgentCheckpointState } from "./agent-checkpoint";
import { createAgentModel, type AgentModelFactory } from "./agent-model";
import { agentToolsFor } from "./agent-tools";
import { AgentFailure, runAgent, type PreparedCall } from "./run-agent";
import { maskSecretInputs } from "../mask-secret-inputs";
import { boundArgumentsOf, stepToolContext } from "../step-tool-context";

/** Recorded tool results are cut to this many characters in events; the model still reads them whole. */
const RECORDED_RESULT_LIMIT = 4000;

/** What an agent step needs of the run executing it. The engine implements it. */
export interface AgentStepHost {
  runId: string;
  workflowId: string;
  store: RunStore;
  pool: ToolPool;
  secrets: SecretResolver;
  workingDirectory: string;
  /** The workflow's mode; the agent's own mode, when set, replaces it. */
  mode: PermissionMode;
  guardrails: Guardrails;
  grants: WriteGrant[];
  /** Keeps an "Always allow" for the workflow's later runs (with who gave it and its expiry). */
  persistGrant: (grant: WriteGrant) => Promise<void>;
  lock: ReadWriteLock;
  signal: AbortSignal;
  scope: () => TemplateScope;
  waitFor: ApprovalWaiter;
  emit: <Type extends RunEventType>(type: Type, payload: RunEventPayload<Type>) => Promise<void>;
  modelFactory?: AgentModelFactory;
}

/** A failure of the step, with what it was given: the engine turns it into the node's error. */
export class AgentStepFailure extends Error {
  constructor(
    message: string,
    readonly input?: unknown,
    /** The model's provider said trying again may help. */
    readonly retryable = false,
  ) {
    super(message);
  }
}

/**
 * Runs one agent node of a run: resolves its task and API key, offers its
 * attached tools, and lets the model work through the tool framework with the
 * agent's mode, the workflow's guardrails and the approval inbox. Each call's
 * approvals are keyed by node, turn and call id, so a replay finds them.
 */
export async function runAgentStep(
  node: AgentNode,
  attached: readonly ToolNode[],
  host: AgentStepHost,
): Promise<{ output: StepOutput; input: unknown }> {
  const mode = node.mode ?? host.mode;
  let tools;
  try {
    tools = agentToolsFor(attached, host.pool);
  } catch (error) {
    throw new AgentStepFailure(error instanceof Error ? error.message : String(error));
  }
  const task = asText(resolveTemplates(node.task, host.scope()));
  const system = asText(resolveTemplates(node.systemPrompt, host.scope()));
  const input = { provider: node.provider, model: node.model, mode, task, tools: tools.map((each) => each.name) };

  let apiKey: string | undefined;
  if (node.apiKey) {
    const reference = parseSecretReference(node.apiKey);
    if (!reference) throw new AgentStepFailure("The API key is written into the workflow in plain text. Store it in Settings → Secrets and reference it as ${NAME}.", input);
    const found = await lookUpSecret(host.secrets, reference);
    if (found.value === undefined) {
      const help = found.problem === "is not set" ? " Store the provider's API key in Settings → Secrets under that name." : "";
      throw new AgentStepFailure(`The secret ${reference} ${found.problem}.${help}`, input);
    }
    apiKey = found.value;
  }
  let model;
  try {
    model = (host.modelFactory ?? createAgentModel)(node, apiKey);
  } catch (error) {
    throw new AgentStepFailure(error instanceof Error ? error.message : String(error), input);
  }

  // The todo list lives here for the whole step, as it would in one conversation.
  const extra: Record<string, unknown> = {};
  const events: ToolEventSink = {
    emit: (event) => {
      void host.emit("node-progress", nodeProgressOf(event)).catch(() => undefined);
    },
  };

  try {
    const outcome = await runAgent({
      model,
      system,
      task,
      tools,
      maxTurns: Math.min(node.maxTurns, host.guardrails.maxTurns),
      planFirst: mode === "plan",
      signal: host.signal,
      checkpoints: {
        load: async () => {
          const row = await host.store.loadAgentCheckpoint(host.runId, node.id);
          return row ? { turn: row.turn, state: JSON.parse(row.messages) as AgentCheckpointState } : null;
        },
        save: (checkpoint) => host.store.saveAgentCheckpoint(host.runId, node.id, checkpoint.turn, JSON.stringify(checkpoint.state)),
      },
      events: {
        text: (turn, text) => host.emit("node-text-delta", { turn, text }),
        usage: (turn, usage) =>
          host.emit("node-model-usage", {
            turn,
            provider: node.provider,
            model: node.model,
            inputTokens: usage.inputTokens ?? 0,
            outputTokens: usage.outputTokens ?? 0,
            ...(usage.cachedInputTokens !== undefined ? { cachedInputTokens: usage.cachedInputTokens } : {}),
            ...(usage.durationMs !== undefined ? { durationMs: usage.durationMs } : {}),
          }),
        toolCallStarted: (call) => host.emit("node-tool-call-started", { ...call }),
        toolCallFinished: (call, result, details) =>
          host.emit("node-tool-call-finished", {
            ...call,
            isError: result.isError,
            content: result.content.length > RECORDED_RESULT_LIMIT ? `${result.content.slice(0, RECORDED_RESULT_LIMIT)}…` : result.content,
            ...details,
          }),
      },
      prepareCall: async (agentTool, call, turn, planApproved): Promise<PreparedCall> => {
        const tool = agentTool.tool;
        const boundArgs = boundArgumentsOf(agentTool.boundArguments, agentTool.operation, host.scope());
        const hidden = new Set([...tool.secretInputs, ...Object.keys(boundArgs)]);
        const given = call.input !== null && typeof call.input === "object" && !Array.isArray(call.input) ? (call.input as Record<string, unknown>) : {};
        const modelArgs = Object.fromEntries(Object.entries(given).filter(([key]) => !hidden.has(key)));
        const recorded = { ...modelArgs, ...maskSecretInputs(tool, boundArgs) };
        const approvals: Record<string, unknown>[] = [];
        const ctx = stepToolContext(host, {
          tool,
          operation: agentTool.operation,
          recordedArguments: recorded,
          settings: agentTool.settings,
          waitFor: async (request) => {
            const approval = await host.waitFor(request);
            approvals.push({ id: approval.id, kind: approval.kind, status: approval.status, decision: approval.decision, feedback: approval.feedback });
            return approval;
          },
          approvals: { nodeId: node.id, keyPrefix: `${node.id}:${turn}:${call.callId}` },
          events,
          extra,
          mode,
          planApproved,
          persistGrant: host.persistGrant,
        });
        return {
          tool: agentTool.nodeId ? lockedTool(tool, boundArgs, host.lock) : tool,
          ctx,
          options: { boundArgs },
          record: { turn, callId: call.callId, name: agentTool.name, tool: tool.name, nodeId: agentTool.nodeId, operation: agentTool.operation, arguments: recorded },
          details: () => ({ approvals }),
        };
      },
      requestPlanApproval: async (plan, turn) => {
        const approval = await host.waitFor({
          runId: host.runId,
          nodeId: node.id,
          key: `${node.id}:plan:${turn}`,
          kind: "plan",
          tool: null,
          operation: null,
          arguments: {},
          preview: plan,
        });
        const editedPlan = approval.decision === "approve" ? approval.editedArguments?.plan : undefined;
        return {
          approved: approval.decision === "approve",
          ...(approval.feedback ? { feedback: approval.feedback } : {}),
          ...(typeof editedPlan === "string" ? { editedPlan } : {}),
        };
      },
    });
    return { output: { content: outcome.answer, data: { answer: outcome.answer, turns: outcome.turns } }, input };
  } catch (error) {
    if (AgentFailure.isInstance(error)) throw new AgentStepFailure(error.message, input, error.retryable);
    throw error;
  }
}

/**
 * The tool seen through the run's lock (a write never races another step's
 * read), judged with the node's bound arguments, which the model's do not include.
 */
function lockedTool(tool: Tool, boundArgs: Record<string, unknown>, lock: ReadWriteLock): Tool {
  const locked = Object.create(tool) as Tool;
  locked.isConcurrencySafe = (args) => tool.isConcurrencySafe({ ...((args as Record<string, unknown> | undefined) ?? {}), ...boundArgs } as never);
  locked.run = (args, ctx, options) => lock.run(!locked.isConcurrencySafe(args as never), () => tool.run(args, ctx, options));
  return locked;
}

