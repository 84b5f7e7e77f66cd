import type { WorkflowProblem } from "@/lib/contracts/workflow-problem";

/** What an inspector says under one field: every problem validation named on it, joined; undefined when none. */
export function fieldErrorOf(problems: readonly WorkflowProblem[], field: string): string | undefined {
  return (
    problems
      .filter((problem) => problem.field === field)
      .map((problem) => problem.message)
      .join(" ") || undefined
  );
}
