import { generateText, Output, type LanguageModel } from "ai";
import { z } from "zod";
import type { JudgeScorer, Verdict } from "@/lib/contracts/evaluation-scorer";

/**
 * The LLM judge: a model reads the row (inputs, expected output) and the run's
 * output and scores the output from 0 to 1 by the rubric, explaining why first.
 * Its reasoning is the verdict's reason, so a person sees why a row passed. A
 * judge that cannot be reached or answers outside its schema scores nothing
 * (score null) and says so: a broken judge is not a failed output.
 */

/** What the judge answers: its reasoning, then the score (in that order, so the score follows from the reasoning). */
export const JudgeAnswerSchema = z.object({
  reasoning: z.string().describe("Why the output earns its score, against each point of the rubric, briefly"),
  score: z.number().min(0).max(1).describe("How well the output meets the rubric, from 0 (not at all) to 1 (fully)"),
});

/** How long one judgement may take, retries included: a judge that hangs holds its row's slot, not the evaluation. */
export const JUDGE_TIMEOUT_MS = 120_000;

/** The longest of each value the judge is shown: a row's text past this is cut, and the judge is told. */
const SHOWN_CHARACTERS = 20_000;

const INSTRUCTIONS = [
  "You are the judge of an evaluation: you score one output of a workflow against a rubric.",
  "Read the rubric, the inputs the workflow was given, the output expected (when there is one) and the output it gave.",
  "Score only by the rubric. Answer with your reasoning and a score from 0 to 1.",
].join(" ");

function shown(value: unknown): string {
  const text = typeof value === "string" ? value : JSON.stringify(value, null, 2);
  if (text === undefined) return "(none)";
  return text.length > SHOWN_CHARACTERS ? `${text.slice(0, SHOWN_CHARACTERS)}\n…(cut at ${SHOWN_CHARACTERS.toLocaleString("en-US")} characters)` : text;
}

/** The prompt the judge is sent for one row. */
export function judgePrompt(rubric: string, row: { inputs: unknown; expected: unknown; output: unknown }): string {
  return [
    `<rubric>\n${rubric}\n</rubric>`,
    `<inputs>\n${shown(row.inputs)}\n</inputs>`,
    row.expected === undefined ? "<expected>(no expected output given)</expected>" : `<expected>\n${shown(row.expected)}\n</expected>`,
    `<output>\n${shown(row.output)}\n</output>`,
  ].join("\n\n");
}

export async function judge(
  scorer: Pick<JudgeScorer, "rubric" | "threshold">,
  model: LanguageModel,
  row: { inputs: unknown; expected: unknown; output: unknown },
  signal?: AbortSignal,
): Promise<Verdict> {
  try {
    const result = await generateText({
      model,
      system: INSTRUCTIONS,
      prompt: judgePrompt(scorer.rubric, row),
      output: Output.object({ schema: JudgeAnswerSchema }),
      maxRetries: 2,
      abortSignal: signal ? AbortSignal.any([signal, AbortSignal.timeout(JUDGE_TIMEOUT_MS)]) : AbortSignal.timeout(JUDGE_TIMEOUT_MS),
    });
    const answer = result.output;
    const passed = answer.score >= scorer.threshold;
    // A judge costs tokens on every row: kept with its verdict, so the evaluation can say what judging took.
    const usage = { inputTokens: result.totalUsage.inputTokens ?? 0, outputTokens: result.totalUsage.outputTokens ?? 0 };
    return { score: answer.score, passed, reason: answer.reasoning.trim() || `scored ${answer.score} by the rubric`, usage };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { score: null, passed: null, reason: `the judge gave no score: ${message.slice(0, 500)}` };
  }
}
