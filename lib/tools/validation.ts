import type { z } from "zod";

/** `["edits", 0, "oldText"]` -> "edits[0].oldText"; the root -> "(arguments)". */
export function fieldPath(path: readonly PropertyKey[], prefix = ""): string {
  let text = prefix;
  for (const key of path) {
    if (typeof key === "number") text += `[${key}]`;
    else text += text === "" ? String(key) : `.${String(key)}`;
  }
  return text === "" ? "(arguments)" : text;
}

/**
 * Every issue of a failed parse as one line naming the field and what was
 * expected, so a model (or a person) can correct all of them at once.
 */
export function describeIssues(error: z.ZodError, prefix = ""): string {
  return error.issues
    .map((issue) => {
      const message = issue.message.replace(/^Invalid input: /, "");
      return `- \`${fieldPath(issue.path, prefix)}\`: ${message}`;
    })
    .join("\n");
}
