import type { RunEvent } from "@/lib/workflow/run-types";

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

/** What an agent step did so far: its streamed text (turns separated by a blank line) and its calls. */
export interface AgentActivity {
  text: string;
  lastTextTurn: number;
  calls: AgentCallView[];
}

const AGENT_EVENTS: ReadonlySet<string> = new Set(["node-text-delta", "node-tool-call-started", "node-tool-call-finished"]);

export function isAgentEvent(event: RunEvent): boolean {
  return AGENT_EVENTS.has(event.type);
}

/** Folds one agent event into the activity. Pure. */
export function applyAgentEvent(activity: AgentActivity | undefined, event: RunEvent): AgentActivity {
  const current = activity ?? { text: "", lastTextTurn: 0, calls: [] };
  const payload = event.payload;
  const turn = typeof payload.turn === "number" ? payload.turn : 0;
  switch (event.type) {
    case "node-text-delta": {
      const text = typeof payload.text === "string" ? payload.text : "";
      const separator = current.text !== "" && turn !== current.lastTextTurn ? "\n\n" : "";
      return { ...current, text: current.text + separator + text, lastTextTurn: turn };
    }
    case "node-tool-call-started": {
      const call: AgentCallView = {
        callId: String(payload.callId ?? ""),
        turn,
        tool: String(payload.tool ?? ""),
        nodeId: typeof payload.nodeId === "string" ? payload.nodeId : null,
        operation: typeof payload.operation === "string" ? payload.operation : null,
        arguments: isRecord(payload.arguments) ? payload.arguments : {},
        status: "running",
        result: null,
        approvals: [],
      };
      return { ...current, calls: [...current.calls.filter((each) => each.callId !== call.callId), call] };
    }
    case "node-tool-call-finished": {
      const callId = String(payload.callId ?? "");
      const approvals = Array.isArray(payload.approvals)
        ? payload.approvals.filter(isRecord).map((approval) => ({
            id: String(approval.id ?? ""),
            kind: String(approval.kind ?? ""),
            decision: typeof approval.decision === "string" ? approval.decision : null,
            feedback: typeof approval.feedback === "string" ? approval.feedback : null,
          }))
        : [];
      const finished = (call: AgentCallView): AgentCallView => ({
        ...call,
        status: payload.isError === true ? "failed" : "succeeded",
        result: typeof payload.content === "string" ? payload.content : "",
        approvals,
      });
      const known = current.calls.some((each) => each.callId === callId);
      const calls = known
        ? current.calls.map((each) => (each.callId === callId ? finished(each) : each))
        : [...current.calls, finished(applyAgentEvent(undefined, { ...event, type: "node-tool-call-started" }).calls[0]!)];
      return { ...current, calls };
    }
    default:
      return current;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
