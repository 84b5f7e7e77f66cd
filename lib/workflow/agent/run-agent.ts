import {
  APICallError,
  RetryError,
  jsonSchema,
  stepCountIs,
  streamText,
  tool as modelTool,
  type AssistantModelMessage,
  type JSONSchema7,
  type LanguageModel,
  type ModelMessage,
  type ToolSet,
} from "ai";
import { describeEdit, runToolCalls, type RunOptions, type Tool, type ToolContext, type ToolResult } from "@/lib/tools";
import type { AgentCallResult, AgentCheckpointState, AgentCheckpointStore, AgentToolCall } from "./agent-checkpoint";
import type { AgentTool } from "./agent-tools";
import { TextBatcher } from "./text-batcher";
import { markedError } from "@/lib/marked-error";

/**
 * A failure of the agent itself (turns used up, plan rejected, the model
 * unreachable): the step fails with this message. `retryable`: the model's
 * provider said trying again may help (overloaded, rate-limited, a dropped connection).
 */
export class AgentFailure extends markedError("neurosurfer.agent-failure") {
  constructor(
    message: string,
    readonly retryable = false,
  ) {
    super(message);
  }
}

/** What one call is recorded as: what the model decided and what the builder bound (secrets masked). */
export interface RecordedCall {
  turn: number;
  callId: string;
  /** The name the model used. */
  name: string;
  tool: string;
  nodeId: string | null;
  operation: string | null;
  arguments: Record<string, unknown>;
}

/** A call ready to run: the host resolved the bound arguments and built its context. */
export interface PreparedCall {
  tool: Tool;
  ctx: ToolContext;
  options: RunOptions;
  record: RecordedCall;
  /** What the host learned while the call ran (e.g. its approvals), added to the finished event. */
  details?: () => Record<string, unknown>;
}

/** Where an agent reports what it does; the engine persists these as the node's events. */
export interface AgentEventSink {
  /** Streamed text of one turn, batched (about every 100 ms). */
  text(turn: number, text: string): Promise<void>;
  toolCallStarted(call: RecordedCall): Promise<void>;
  toolCallFinished(call: RecordedCall, result: AgentCallResult, details: Record<string, unknown>): Promise<void>;
  /** What one model call used, as the provider reported it. */
  usage?(turn: number, usage: ModelCallUsage): Promise<void>;
}

/** Tokens of one model call; a count the provider did not report is absent. */
export interface ModelCallUsage {
  inputTokens?: number;
  outputTokens?: number;
  cachedInputTokens?: number;
  /** From the request to the last part of the answer. */
  durationMs?: number;
}

export interface AgentRunOptions {
  model: LanguageModel;
  system: string;
  task: string;
  tools: readonly AgentTool[];
  maxTurns: number;
  /** Plan mode: the agent's first answer is a plan that a person approves before anything is changed. */
  planFirst: boolean;
  checkpoints: AgentCheckpointStore;
  events: AgentEventSink;
  /** Builds the context of one call, with the agent's mode and whether its plan is approved. */
  prepareCall(agentTool: AgentTool, call: AgentToolCall, turn: number, planApproved: boolean): Promise<PreparedCall>;
  /** Presents a plan in the inbox; `turn` keys the approval so a replay finds it. */
  requestPlanApproval(plan: string, turn: number): Promise<PlanDecision>;
  signal?: AbortSignal;
  /** How often streamed text is handed to `events.text`. */
  textIntervalMs?: number;
}

/** A person's answer to an agent's plan; feedback on a rejection is what the agent revises it by. */
export interface PlanDecision {
  approved: boolean;
  feedback?: string;
  /** The plan as the person edited and approved it, when they changed it: the one to carry out. */
  editedPlan?: string;
}

export interface AgentOutcome {
  answer: string;
  /** Model calls made in all (including those of an earlier process). */
  turns: number;
}

const PLAN_INSTRUCTIONS =
  "You are in plan mode. First, look around with read-only tools if you need to, then reply with a short numbered plan of what you will do, " +
  "without calling tools that change anything. A person approves the plan before you carry it out.";

/**
 * The agent loop: ask the model, run the tools it called through the
 * framework (validation, secrets, the permission gate, masking), give it the
 * results, and repeat until it calls `finish` or answers without calling a
 * tool. The state is checkpointed when the model answers, after each tool
 * call and after each turn, so a resumed agent never asks the model again for
 * a turn it already answered and re-runs only the calls that had not finished.
 */
export async function runAgent(options: AgentRunOptions): Promise<AgentOutcome> {
  const byName = new Map(options.tools.map((each) => [each.name, each]));
  const toolSet: ToolSet = Object.fromEntries(
    options.tools.map((each) => [
      each.name,
      modelTool({ description: each.schema.description, inputSchema: jsonSchema(each.schema.inputSchema as JSONSchema7) }),
    ]),
  );
  const system = [options.system.trim(), options.planFirst ? PLAN_INSTRUCTIONS : ""].filter(Boolean).join("\n\n");

  const stored = await options.checkpoints.load();
  let turn = stored?.turn ?? 0;
  const state: AgentCheckpointState = stored?.state ?? {
    messages: [{ role: "user", content: options.task }],
    planApproved: !options.planFirst,
    planPending: null,
    pending: null,
    answer: null,
  };
  const save = () => options.checkpoints.save({ turn, state });

  for (;;) {
    if (state.answer !== null) return { answer: state.answer, turns: turn };
    if (state.planPending !== null) {
      await decidePlan(state, turn, options);
      await save();
      continue;
    }
    if (state.pending) {
      await finishTurn(state, turn, byName, options, save);
      await save();
      continue;
    }
    if (turn >= options.maxTurns) {
      throw new AgentFailure(`The agent used all its ${options.maxTurns} turns without finishing; raise its turn limit or narrow the task.`);
    }
    turn += 1;
    const reply = await callModel(options, system, state.messages, toolSet, turn);
    const content: Extract<AssistantModelMessage["content"], unknown[]> = [];
    if (reply.text) content.push({ type: "text", text: reply.text });
    for (const call of reply.calls) content.push({ type: "tool-call", toolCallId: call.callId, toolName: call.name, input: call.input });
    state.messages.push({ role: "assistant", content });
    if (reply.calls.length > 0) state.pending = { calls: reply.calls, results: {} };
    else if (!state.planApproved) state.planPending = reply.text;
    else state.answer = reply.text;
    await save();
  }
}

async function decidePlan(state: AgentCheckpointState, turn: number, options: AgentRunOptions): Promise<void> {
  const decision = await options.requestPlanApproval(state.planPending ?? "", turn);
  const feedback = decision.feedback?.trim();
  state.planPending = null;
  if (decision.approved) {
    state.planApproved = true;
    const plan = decision.editedPlan?.trim();
    const approvedPlan = plan ? `The person edited your plan before approving it; carry out this plan, not yours:\n\n${plan}\n\n` : "The plan is approved. ";
    state.messages.push({ role: "user", content: `${approvedPlan}Carry it out now.${feedback ? ` The person added: ${feedback}` : ""}` });
    return;
  }
  if (!feedback) throw new AgentFailure("The agent's plan was rejected.");
  state.messages.push({ role: "user", content: `The person rejected the plan and said: ${feedback}\nPresent a revised plan.` });
}

/** Runs the calls of the turn in progress that have no result yet, then adds every result to the conversation. */
async function finishTurn(
  state: AgentCheckpointState,
  turn: number,
  byName: ReadonlyMap<string, AgentTool>,
  options: AgentRunOptions,
  save: () => Promise<void>,
): Promise<void> {
  const pending = state.pending!;
  const open = pending.calls.filter((call) => !(call.callId in pending.results));
  const known = open.filter((call) => byName.has(call.name));
  for (const call of open) {
    if (!byName.has(call.name)) {
      pending.results[call.callId] = {
        content: `There is no tool "${call.name}". Call one of: ${[...byName.keys()].join(", ")}.`,
        isError: true,
      };
    }
  }
  const prepared = await Promise.all(known.map((call) => options.prepareCall(byName.get(call.name)!, call, turn, state.planApproved)));
  // Results are checkpointed as each call finishes, in order, so a restart re-runs only what had not finished.
  let saving = Promise.resolve();
  const requests = prepared.map((call, index) => ({
    tool: withReporting(call, options, (result) => {
      pending.results[known[index]!.callId] = result;
      saving = saving.then(save);
      return saving;
    }),
    args: known[index]!.input,
    ctx: call.ctx,
    options: call.options,
  }));
  await runToolCalls(requests);
  await saving;

  state.messages.push({
    role: "tool",
    content: pending.calls.map((call) => {
      const result = pending.results[call.callId]!;
      return {
        type: "tool-result" as const,
        toolCallId: call.callId,
        toolName: call.name,
        output: result.isError ? { type: "error-text" as const, value: result.content } : { type: "text" as const, value: result.content },
      };
    }),
  });
  const finished = pending.calls.map((call) => pending.results[call.callId]?.finish).find((answer) => answer !== undefined);
  state.pending = null;
  if (finished !== undefined) state.answer = finished;
}

/** The call's tool, wrapped so its start and end are reported and its result kept as soon as it is known. */
function withReporting(
  prepared: PreparedCall,
  options: AgentRunOptions,
  keep: (result: AgentCallResult) => Promise<void>,
): Tool {
  const wrapped = Object.create(prepared.tool) as Tool;
  wrapped.run = async (args, ctx, runOptions) => {
    await options.events.toolCallStarted(prepared.record);
    const result: ToolResult = await prepared.tool.run(args, ctx, runOptions);
    // A call a person edited before approving: the model reads so first, and does not take the result for its own call's.
    const content = result.edited.length > 0 ? `${describeEdit(result.edited)}\n\n${result.content}` : result.content;
    const kept: AgentCallResult = { content, isError: result.isError };
    if (result.control?.kind === "finish") kept.finish = result.control.value;
    await keep(kept);
    await options.events.toolCallFinished(prepared.record, kept, prepared.details?.() ?? {});
    return result;
  };
  return wrapped;
}

interface ModelReply {
  text: string;
  calls: AgentToolCall[];
}

async function callModel(options: AgentRunOptions, system: string, messages: ModelMessage[], tools: ToolSet, turn: number): Promise<ModelReply> {
  const batcher = new TextBatcher((text) => options.events.text(turn, text), options.textIntervalMs ?? 100);
  let text = "";
  const calls: AgentToolCall[] = [];
  let failure: unknown = null;
  const requestedAt = performance.now();
  try {
    const result = streamText({
      model: options.model,
      ...(system ? { system } : {}),
      messages,
      tools,
      stopWhen: stepCountIs(1),
      ...(options.signal ? { abortSignal: options.signal } : {}),
      onError: () => undefined,
    });
    for await (const part of result.fullStream) {
      if (part.type === "text-delta") {
        text += part.text;
        batcher.push(part.text);
      } else if (part.type === "tool-call") {
        calls.push({ callId: part.toolCallId, name: part.toolName, input: part.input });
      } else if (part.type === "error") {
        failure = part.error;
      } else if (part.type === "finish") {
        const { inputTokens, outputTokens, inputTokenDetails } = part.totalUsage;
        await options.events.usage?.(turn, { inputTokens, outputTokens, cachedInputTokens: inputTokenDetails?.cacheReadTokens, durationMs: Math.round(performance.now() - requestedAt) });
      }
    }
  } catch (error) {
    failure = error;
  } finally {
    await batcher.flush();
  }
  if (failure !== null) {
    if (options.signal?.aborted) throw failure;
    const message = failure instanceof Error ? failure.message : String(failure);
    throw new AgentFailure(`The model could not be reached or refused the request: ${message}`, providerSaysRetry(failure));
  }
  return { text, calls };
}

/** Whether the provider's answer (after the AI SDK's own retries) says a later try may succeed. */
function providerSaysRetry(failure: unknown): boolean {
  const last = RetryError.isInstance(failure) ? failure.lastError : failure;
  return APICallError.isInstance(last) && last.isRetryable;
}
