import type { LanguageModelV3GenerateResult } from "@ai-sdk/provider";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { judge, judgePrompt } from "./llm-judge";

/** A model that answers every request with `text`, recording what it was sent. */
function answering(text: string): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doGenerate: async (): Promise<LanguageModelV3GenerateResult> => ({
      content: [{ type: "text", text }],
      finishReason: { unified: "stop", raw: undefined },
      usage: { inputTokens: { total: 50, noCache: 50, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 20, text: 20, reasoning: undefined } },
      warnings: [],
    }),
  });
}

const row = { inputs: { who: "Ada" }, expected: "Hello Ada", output: "Hi there, Ada!" };

describe("the LLM judge", () => {
  it("scores by the rubric, keeps its reasoning as the reason, and passes from the threshold", async () => {
    const model = answering(JSON.stringify({ reasoning: "Greets Ada by name, politely.", score: 0.8 }));
    expect(await judge({ rubric: "Greets the person by name.", threshold: 0.7 }, model, row)).toEqual({
      score: 0.8,
      passed: true,
      reason: "Greets Ada by name, politely.",
      // The model's own count, kept with the verdict.
      usage: { inputTokens: 50, outputTokens: 20 },
    });
    expect((await judge({ rubric: "Greets the person by name.", threshold: 0.9 }, model, row)).passed).toBe(false);
    // What it was shown: the rubric, the inputs, the expected output and the output.
    const sent = JSON.stringify(model.doGenerateCalls[0]!.prompt);
    for (const part of ["Greets the person by name.", "Ada", "Hello Ada", "Hi there, Ada!"]) expect(sent).toContain(part);
  });

  it("scores nothing, saying why, when its answer is no score (a broken judge is not a failed output)", async () => {
    const verdict = await judge({ rubric: "Greets.", threshold: 0.5 }, answering("I think it is fine."), row);
    expect(verdict.score).toBeNull();
    expect(verdict.passed).toBeNull();
    expect(verdict.reason).toMatch(/^the judge gave no score: /);
  });

  it("is told when a row has no expected output, and shown long values cut", () => {
    const prompt = judgePrompt("R", { inputs: {}, expected: undefined, output: "x".repeat(30_000) });
    expect(prompt).toContain("(no expected output given)");
    expect(prompt).toContain("cut at 20,000 characters");
  });
});
