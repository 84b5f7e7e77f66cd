import type { RunEvent, RunEventPayload } from "@/lib/contracts/run-event";

/** One tool call of an agent, as the run view shows it. */
export interface AgentCallView {
  callId: string;
  turn: number;
  /** The tool's name (the title is looked up by the view). */
  tool: string;
  /** The attached tool node it went through; `null` for ask_user, todo and finish. */
  nodeId: string | null;
  operation: string | null;
  /** What the model decided, plus the node's bound arguments; secrets masked (references kept). */
  arguments: Record<string, unknown>;
  status: "running" | "succeeded" | "failed";
  result: string | null;
  approvals: { id: string; kind: string; decision: string | null; feedback: string | null }[];
}

/** What an agent step did so far: its streamed text (turns separated by a blank line), its calls, and the tokens its model calls used. */
export interface AgentActivity {
  text: string;
  lastTextTurn: number;
  calls: AgentCallView[];
  /** Summed over its model calls, as the provider reported them, with the model they were made to; absent until the first call's usage arrives. */
  tokens?: { input: number; output: number; cached: number; calls: number; provider: string; model: string };
}

export type AgentEvent = Extract<RunEvent, { type: "node-text-delta" | "node-tool-call-started" | "node-tool-call-finished" | "node-model-usage" }>;

const AGENT_EVENTS: ReadonlySet<string> = new Set<AgentEvent["type"]>(["node-text-delta", "node-tool-call-started", "node-tool-call-finished", "node-model-usage"]);

export function isAgentEvent(event: RunEvent): event is AgentEvent {
  return AGENT_EVENTS.has(event.type);
}

/** Folds one agent event into the activity. Pure. */
export function applyAgentEvent(activity: AgentActivity | undefined, event: AgentEvent): AgentActivity {
  const current = activity ?? { text: "", lastTextTurn: 0, calls: [] };
  switch (event.type) {
    case "node-text-delta": {
      const { turn, text } = event.payload;
      const separator = current.text !== "" && turn !== current.lastTextTurn ? "\n\n" : "";
      return { ...current, text: current.text + separator + text, lastTextTurn: turn };
    }
    case "node-tool-call-started":
      return { ...current, calls: [...current.calls.filter((each) => each.callId !== event.payload.callId), startedCall(event.payload)] };
    case "node-model-usage": {
      const before = current.tokens ?? { input: 0, output: 0, cached: 0, calls: 0 };
      const { inputTokens, outputTokens, cachedInputTokens = 0, provider, model } = event.payload;
      // An agent step calls one model (its node's): the last call names it.
      return {
        ...current,
        tokens: { input: before.input + inputTokens, output: before.output + outputTokens, cached: before.cached + cachedInputTokens, calls: before.calls + 1, provider, model },
      };
    }
    case "node-tool-call-finished": {
      const payload = event.payload;
      const finished = (call: AgentCallView): AgentCallView => ({
        ...call,
        status: payload.isError ? "failed" : "succeeded",
        result: payload.content,
        approvals: (payload.approvals ?? []).map(({ id, kind, decision, feedback }) => ({ id, kind, decision, feedback })),
      });
      const known = current.calls.some((each) => each.callId === payload.callId);
      const calls = known
        ? current.calls.map((each) => (each.callId === payload.callId ? finished(each) : each))
        : [...current.calls, finished(startedCall(payload))];
      return { ...current, calls };
    }
  }
}

function startedCall(call: RunEventPayload<"node-tool-call-started">): AgentCallView {
  return {
    callId: call.callId,
    turn: call.turn,
    tool: call.tool,
    nodeId: call.nodeId,
    operation: call.operation,
    arguments: call.arguments,
    status: "running",
    result: null,
    approvals: [],
  };
}
