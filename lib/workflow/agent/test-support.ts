import type { LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { convertArrayToReadableStream, MockLanguageModelV3 } from "ai/test";

/** One scripted model reply: text, tool calls, or both. */
export interface ScriptedTurn {
  text?: string;
  calls?: { name: string; input: unknown; id?: string }[];
}

/**
 * A mock model that answers each request with the next scripted turn, and
 * records every request (`model.doStreamCalls`) so tests can count them and
 * read what the model was sent.
 */
export function scriptedModel(turns: readonly ScriptedTurn[]): MockLanguageModelV3 {
  let index = 0;
  return new MockLanguageModelV3({
    doStream: async () => {
      const turn = turns[index] ?? { text: "(the script has no more turns)" };
      index += 1;
      const parts: LanguageModelV3StreamPart[] = [];
      if (turn.text) {
        parts.push({ type: "text-start", id: "text" });
        // Two deltas, so streaming is exercised.
        const middle = Math.ceil(turn.text.length / 2);
        parts.push({ type: "text-delta", id: "text", delta: turn.text.slice(0, middle) });
        parts.push({ type: "text-delta", id: "text", delta: turn.text.slice(middle) });
        parts.push({ type: "text-end", id: "text" });
      }
      (turn.calls ?? []).forEach((call, callIndex) => {
        parts.push({ type: "tool-call", toolCallId: call.id ?? `call_${index}_${callIndex}`, toolName: call.name, input: JSON.stringify(call.input) });
      });
      parts.push({
        type: "finish",
        finishReason: { unified: turn.calls?.length ? "tool-calls" : "stop", raw: undefined },
        usage: {
          inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 5, text: 5, reasoning: undefined },
        },
      });
      return { stream: convertArrayToReadableStream(parts) };
    },
  });
}
