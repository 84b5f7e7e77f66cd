import type { EvaluationDetail, EvaluationResult, ScorerAverage } from "@/lib/contracts/evaluation";
import type { Verdict } from "@/lib/contracts/evaluation-scorer";

/**
 * Two evaluations side by side (the comparison page): each scorer both have
 * (by name) with its two averages and the difference, and each dataset row
 * with both results and whether a scorer's verdict changed. Pure: what the
 * page draws, table and chart alike, comes from here.
 */

export interface ScorerComparison {
  name: string;
  kind: string;
  /** Where the scorer sits in each evaluation's verdicts. */
  indexA: number;
  indexB: number;
  averageA: number | null;
  averageB: number | null;
  /** B's average less A's; null when either has none. */
  difference: number | null;
}

export interface RowComparison {
  position: number;
  inputs: Record<string, unknown>;
  expected: unknown;
  a: EvaluationResult | null;
  b: EvaluationResult | null;
  /** Per compared scorer: the two verdicts (null: none yet). */
  verdicts: { a: Verdict | null; b: Verdict | null }[];
  /** Some scorer passed it in one and not in the other. */
  changed: boolean;
}

export interface Comparison {
  scorers: ScorerComparison[];
  rows: RowComparison[];
  changedCount: number;
  /** Why the two cannot be compared row by row (different datasets); null when they can. */
  problem: string | null;
}

/** A scorer in one evaluation and not the other is left out: there is nothing to compare it with. */
export function compareEvaluations(a: EvaluationDetail, b: EvaluationDetail): Comparison {
  const averageOf = (averages: readonly ScorerAverage[], name: string) => averages.find((each) => each.name === name)?.average ?? null;
  const scorers = a.scorers.flatMap((scorer, indexA): ScorerComparison[] => {
    const indexB = b.scorers.findIndex((other) => other.name === scorer.name);
    if (indexB < 0) return [];
    const averageA = averageOf(a.averages, scorer.name);
    const averageB = averageOf(b.averages, scorer.name);
    return [{ name: scorer.name, kind: scorer.kind, indexA, indexB, averageA, averageB, difference: averageA === null || averageB === null ? null : averageB - averageA }];
  });
  const problem = a.datasetId === b.datasetId ? null : `These evaluations ran different datasets (“${a.datasetName}” and “${b.datasetName}”): their rows are not the same rows.`;
  const byPosition = (results: readonly EvaluationResult[]) => new Map(results.map((result) => [result.position, result]));
  const [rowsA, rowsB] = [byPosition(a.results), byPosition(b.results)];
  const positions = [...new Set([...rowsA.keys(), ...rowsB.keys()])].sort((x, y) => x - y);
  const rows = positions.map((position): RowComparison => {
    const [resultA, resultB] = [rowsA.get(position) ?? null, rowsB.get(position) ?? null];
    const verdicts = scorers.map((scorer) => ({ a: resultA?.verdicts[scorer.indexA] ?? null, b: resultB?.verdicts[scorer.indexB] ?? null }));
    const changed = verdicts.some(({ a: verdictA, b: verdictB }) => verdictA !== null && verdictB !== null && verdictA.passed !== verdictB.passed);
    const shown = resultA ?? resultB!;
    return { position, inputs: shown.inputs, expected: shown.expected, a: resultA, b: resultB, verdicts, changed };
  });
  return { scorers, rows, changedCount: rows.filter((row) => row.changed).length, problem };
}
