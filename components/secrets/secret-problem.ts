/**
 * What to say after a save whose tool found the value unusable: "Saved, but
 * SQL Database says this value is not a database connection URL (...)".
 * Set is not the same as usable. "" when there is nothing to warn about.
 */
export function savedButUnusableMessage(toolTitle: string | null, problem: string): string {
  const trimmed = problem.trim();
  if (trimmed === "") return "";
  return `Saved, but ${toolTitle ?? "its tool"} says this value ${trimmed.replace(/\.$/, "")}.`;
}
