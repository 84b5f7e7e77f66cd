import type { RunEventPayload } from "@/lib/contracts/run-event";
import type { ToolEvent } from "@/lib/tools";

/** What a tool reported while it ran, as the `node-progress` event of its step (a tool step's, or the agent's that called it). */
export function nodeProgressOf(event: ToolEvent): RunEventPayload<"node-progress"> {
  return event.type === "tool-progress" ? { message: event.message } : { ...event };
}
