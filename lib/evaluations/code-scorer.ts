import type { CodeScorer, Verdict } from "@/lib/contracts/evaluation-scorer";
import type { JsonValue, SandboxJob, SandboxOutcome, SandboxRunOptions } from "@/lib/sandbox";

/**
 * A custom scorer: the person's JavaScript, run as a Code node's is (the
 * sandbox: QuickJS in a worker process, no files, network or secrets, the
 * node's limits), given `output`, `expected` and `inputs`. What it returns
 * is read as a verdict: a number from 0 to 1 (passing from 0.5), true or
 * false, or `{ score, passed?, reason? }`. Anything else, or an error, scores
 * nothing and says why.
 */

/** The sandbox as the scorer uses it (lib/sandbox's SandboxPool). */
export interface ScorerSandbox {
  run(job: SandboxJob, options?: SandboxRunOptions): Promise<SandboxOutcome>;
}

/** A score from which a number alone passes, when the code gives no `passed`. */
const PASS_FROM = 0.5;

export async function scoreWithCode(
  scorer: Pick<CodeScorer, "code" | "timeLimitMs">,
  sandbox: ScorerSandbox,
  row: { inputs: Record<string, unknown>; expected: unknown; output: unknown },
  signal?: AbortSignal,
): Promise<Verdict> {
  // Through JSON: what crosses into the sandbox is plain data (undefined, an absent expected output, stays absent).
  const scope = JSON.parse(JSON.stringify({ output: row.output ?? null, expected: row.expected ?? null, inputs: row.inputs })) as Record<string, JsonValue>;
  const outcome = await sandbox.run({ code: scorer.code, scope, limits: { timeMs: scorer.timeLimitMs } }, signal ? { signal } : {});
  if (!outcome.ok) {
    const where = outcome.error.line ? ` (line ${outcome.error.line})` : "";
    return { score: null, passed: null, reason: `the scorer's code failed${where}: ${outcome.error.message}` };
  }
  return verdictOf(outcome.value);
}

/** What the code returned, as a verdict. */
export function verdictOf(value: JsonValue): Verdict {
  if (typeof value === "boolean") return { score: value ? 1 : 0, passed: value, reason: value ? "the code passed it" : "the code failed it" };
  if (typeof value === "number") return numberVerdict(value, undefined, undefined);
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    const { score, passed, reason } = value;
    const said = typeof reason === "string" && reason.trim() !== "" ? reason.trim().slice(0, 2_000) : undefined;
    const saidPassed = typeof passed === "boolean" ? passed : undefined;
    if (typeof score === "number") return numberVerdict(score, saidPassed, said);
    if (score === null || score === undefined) {
      if (saidPassed !== undefined) return { score: saidPassed ? 1 : 0, passed: saidPassed, reason: said ?? (saidPassed ? "the code passed it" : "the code failed it") };
      return { score: null, passed: null, reason: said ?? "the code gave no score" };
    }
  }
  return { score: null, passed: null, reason: `the code returned ${JSON.stringify(value)?.slice(0, 100)}: return a score from 0 to 1, true or false, or { score, passed, reason }` };
}

function numberVerdict(score: number, passed: boolean | undefined, reason: string | undefined): Verdict {
  if (!Number.isFinite(score) || score < 0 || score > 1) return { score: null, passed: null, reason: `the code returned the score ${score}: a score is from 0 to 1` };
  const passes = passed ?? score >= PASS_FROM;
  return { score, passed: passes, reason: reason ?? `the code scored it ${score}` };
}
