/**
 * The editor toolbar's word on the workflow, agreeing with the cards' badges:
 * errors stop a run, warnings do not but are counted all the same, and
 * "Ready to run" only when the cards show nothing at all.
 *
 * @example
 *   workflowStatus({ errors: 0, warnings: 2, checking: false }) // { tone: "caution", text: "2 warnings" }
 */
export function workflowStatus({ errors, warnings, checking }: { errors: number; warnings: number; checking: boolean }): { tone: "caution" | "safe"; text: string } | null {
  const count = (number: number, noun: string) => `${number} ${noun}${number === 1 ? "" : "s"}`;
  if (errors > 0) return { tone: "caution", text: warnings > 0 ? `${count(errors, "problem")}, ${count(warnings, "warning")}` : count(errors, "problem") };
  if (checking) return null;
  if (warnings > 0) return { tone: "caution", text: count(warnings, "warning") };
  return { tone: "safe", text: "Ready to run" };
}
