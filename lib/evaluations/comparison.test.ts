import { describe, expect, it } from "vitest";
import type { EvaluationDetail, EvaluationResult } from "@/lib/contracts/evaluation";
import { ScorerSchema, type Verdict } from "@/lib/contracts/evaluation-scorer";
import { averagesOf } from "./evaluation-plan";
import { compareEvaluations } from "./comparison";

const pass: Verdict = { score: 1, passed: true, reason: "ok" };
const fail: Verdict = { score: 0, passed: false, reason: "no" };

function evaluation(id: string, names: string[], rows: Verdict[][], datasetId = "set"): EvaluationDetail {
  const scorers = names.map((name) => ScorerSchema.parse({ kind: "exact", name }));
  const results = rows.map(
    (verdicts, index): EvaluationResult => ({
      position: index + 1,
      status: "scored",
      inputs: { who: `P${index + 1}` },
      expected: `Hello P${index + 1}`,
      runId: `${id}-run-${index + 1}`,
      runStatus: "succeeded",
      output: `out ${index + 1}`,
      error: null,
      verdicts,
      durationMs: 10,
      inputTokens: 0,
      outputTokens: 0,
      costMicros: null,
      failedSteps: 0,
    }),
  );
  return {
    id,
    workflowId: "w",
    version: 1,
    draft: false,
    datasetId,
    datasetName: datasetId,
    scorers,
    concurrency: 2,
    status: "finished",
    rowCount: rows.length,
    progress: { pending: 0, running: 0, scored: rows.length, error: 0, cancelled: 0 },
    averages: averagesOf(scorers, rows),
    createdAt: "2026-12-05T00:00:00.000Z",
    finishedAt: null,
    createdBy: null,
    results,
    totals: { durationMs: 0, inputTokens: 0, outputTokens: 0, costMicros: null, failedSteps: 0 },
  };
}

describe("comparing two evaluations", () => {
  it("pairs the scorers by name with the difference of their averages, and marks the rows whose verdict changed", () => {
    const a = evaluation("a", ["exact", "only in a"], [
      [pass, pass],
      [pass, fail],
      [fail, pass],
    ]);
    const b = evaluation("b", ["extra", "exact"], [
      [pass, pass],
      [pass, fail],
      [pass, pass],
    ]);
    const comparison = compareEvaluations(a, b);
    expect(comparison.problem).toBeNull();
    expect(comparison.scorers).toEqual([{ name: "exact", kind: "exact", indexA: 0, indexB: 1, averageA: 2 / 3, averageB: 2 / 3, difference: 0 }]);
    expect(comparison.rows.map((row) => row.changed)).toEqual([false, true, true]);
    expect(comparison.changedCount).toBe(2);
    expect(comparison.rows[1]!.verdicts).toEqual([{ a: pass, b: fail }]);
  });

  it("says so when the two ran different datasets", () => {
    expect(compareEvaluations(evaluation("a", ["x"], [[pass]], "one"), evaluation("b", ["x"], [[fail]], "two")).problem).toMatch(/different datasets/);
  });
});
