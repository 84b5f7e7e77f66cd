import { keptLength, MAX_RESULT_CHARACTERS, truncateMiddle, type KeptText } from "../shared/limits";
import type { ShellOutcome } from "./shell-process";

/** Room left for the header lines of a result. */
const HEADER_ALLOWANCE = 500;

/** `1234` -> "1.23 s". */
export function formatSeconds(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`;
}

/**
 * Both streams within one result's budget: stderr (usually the short,
 * important part) gets up to a third, stdout the rest. Each stream may come as
 * an `OutputBuffer`'s kept text, so the notice counts what the buffer dropped too.
 */
export function capOutput(stdout: string | KeptText, stderr: string | KeptText): { stdout: string; stderr: string } {
  const budget = MAX_RESULT_CHARACTERS - HEADER_ALLOWANCE;
  if (keptLength(stdout) + keptLength(stderr) <= budget) return { stdout: truncateMiddle(stdout, budget), stderr: truncateMiddle(stderr, budget) };
  const stderrBudget = Math.min(keptLength(stderr), Math.floor(budget / 3));
  return { stdout: truncateMiddle(stdout, budget - stderrBudget), stderr: truncateMiddle(stderr, stderrBudget) };
}

/** The streams as the model reads them. */
export function formatStreams(stdout: string, stderr: string): string {
  const parts: string[] = [];
  parts.push(stdout === "" ? "stdout: (empty)" : `stdout:\n${stdout.replace(/\n$/, "")}`);
  if (stderr !== "") parts.push(`stderr:\n${stderr.replace(/\n$/, "")}`);
  return parts.join("\n");
}

/** "exit code 0" / "ended by signal SIGKILL". */
export function describeExit(outcome: Pick<ShellOutcome, "exitCode" | "signal">): string {
  if (outcome.exitCode !== null) return `exit code ${outcome.exitCode}`;
  return outcome.signal ? `ended by signal ${outcome.signal}` : "ended";
}
