import { MAX_RESULT_CHARACTERS, truncateMiddle } from "../shared/limits";
import type { ShellOutcome } from "./shell-process";

/** Room left for the header lines of a result. */
const HEADER_ALLOWANCE = 500;

/** `1234` -> "1.23 s". */
export function formatSeconds(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`;
}

/**
 * Both streams within one result's budget: stderr (usually the short,
 * important part) gets up to a third, stdout the rest.
 */
export function capOutput(stdout: string, stderr: string): { stdout: string; stderr: string } {
  const budget = MAX_RESULT_CHARACTERS - HEADER_ALLOWANCE;
  if (stdout.length + stderr.length <= budget) return { stdout, stderr };
  const stderrBudget = Math.min(stderr.length, Math.floor(budget / 3));
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
