import type { LanguageModel } from "ai";
import type { JudgeModel, Scorer, Verdict } from "@/lib/contracts/evaluation-scorer";
import { scoreWithCode, type ScorerSandbox } from "./code-scorer";
import { judge } from "./llm-judge";
import { score } from "./scorers";

/**
 * Every scorer's verdict on one row, in the scorers' order: the rule scorers
 * at once (lib/evaluations/scorers.ts), a judge through its model, a custom
 * scorer through the sandbox. A scorer that throws (a bug) gives an unscored
 * verdict saying so rather than losing the row's other verdicts.
 */

export interface ScoringContext {
  /** The judge's model, its API key read from the stored secret it names. */
  judgeModel: (model: JudgeModel) => Promise<LanguageModel>;
  sandbox: ScorerSandbox;
  signal?: AbortSignal;
}

export interface ScoredRow {
  inputs: Record<string, unknown>;
  /** Undefined when the row has no expected output. */
  expected: unknown;
  output: unknown;
}

export async function scoreRow(scorers: readonly Scorer[], row: ScoredRow, context: ScoringContext): Promise<Verdict[]> {
  return Promise.all(
    scorers.map(async (scorer): Promise<Verdict> => {
      try {
        switch (scorer.kind) {
          case "llm-judge":
            return await judge(scorer, await context.judgeModel(scorer.model), row, context.signal);
          case "code":
            return await scoreWithCode(scorer, context.sandbox, row, context.signal);
          default:
            return score(scorer, row.output, row.expected);
        }
      } catch (error) {
        return { score: null, passed: null, reason: `the scorer could not score this row: ${error instanceof Error ? error.message : String(error)}` };
      }
    }),
  );
}
