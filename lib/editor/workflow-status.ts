/** What the editor's status line counts: a check's errors and warnings, and whether a newer check is under way. */
export interface ProblemCounts {
  errors: number;
  warnings: number;
  checking: boolean;
}

/**
 * The editor toolbar's word on the workflow, agreeing with the cards' badges:
 * errors stop a run, warnings do not but are counted all the same, and
 * "Ready to run" only when the cards show nothing at all.
 *
 * @example
 *   workflowStatus({ errors: 0, warnings: 2, checking: false }) // { tone: "caution", text: "2 warnings" }
 */
export function workflowStatus({ errors, warnings, checking }: ProblemCounts): { tone: "caution" | "safe"; text: string } | null {
  const count = (number: number, noun: string) => `${number} ${noun}${number === 1 ? "" : "s"}`;
  if (errors > 0) return { tone: "caution", text: warnings > 0 ? `${count(errors, "problem")}, ${count(warnings, "warning")}` : count(errors, "problem") };
  if (checking) return null;
  if (warnings > 0) return { tone: "caution", text: count(warnings, "warning") };
  return { tone: "safe", text: "Ready to run" };
}

/**
 * The counts of a check's `problems` (those that are not errors are warnings).
 *
 * @example
 *   problemCounts({ problems: [{ severity: "error" }, { severity: "warning" }], checking: false }) // { errors: 1, warnings: 1, checking: false }
 */
export function problemCounts({ problems, checking }: { problems: readonly { severity: "error" | "warning" }[]; checking: boolean }): ProblemCounts {
  const errors = problems.filter((problem) => problem.severity === "error").length;
  return { errors, warnings: problems.length - errors, checking };
}
