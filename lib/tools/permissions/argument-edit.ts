import type { ToolBase } from "../tool-base";
import { fieldPath } from "../validation";
import { canonicalJson } from "./canonical-json";

/**
 * "Edit and approve": a person changes a call's arguments before approving
 * it. The edit is checked as a model's call is (the operation, then the
 * tool's input model), and what changed is told to the model and shown as a
 * diff, values as people see them (secrets masked).
 */

/** A field the edit got wrong, named as the form and the 422 name it. */
export interface EditIssue {
  path: string;
  message: string;
}

export type EditCheck = { ok: true; arguments: Record<string, unknown> } | { ok: false; issues: EditIssue[] };

/**
 * Checks `edited` (the arguments a person approved) against `tool`'s input
 * model, as executeTool checks a model's call. Secret inputs are not the
 * person's to change: shown masked (or as a `${NAME}` reference), the value
 * they see is not the value, so one left as shown keeps the original and any
 * other is refused (the mask text must never become the secret, nor a
 * secret be swapped in through an approval).
 *
 * @example
 *   const check = checkEditedArguments(shellTool, approval.arguments, { command: "ls" });
 *   if (!check.ok) throw new HttpError(422, "…", { issues: check.issues });
 */
export function checkEditedArguments(tool: ToolBase, proposed: Record<string, unknown>, edited: Record<string, unknown>): EditCheck {
  const issues: EditIssue[] = [];
  const candidate: Record<string, unknown> = { ...edited };
  for (const input of tool.secretInputs) {
    if (candidate[input] !== undefined && canonicalJson(candidate[input]) !== canonicalJson(proposed[input])) {
      issues.push({ path: input, message: "a secret input cannot be changed when approving: leave it as shown; it keeps its stored value" });
    }
    if (proposed[input] === undefined) delete candidate[input];
    else candidate[input] = proposed[input];
  }
  if (tool.operations) {
    const known = Object.keys(tool.operations);
    if (typeof candidate.operation !== "string" || !Object.hasOwn(tool.operations, candidate.operation)) {
      issues.push({ path: "operation", message: `expected one of ${known.join(", ")}` });
      return { ok: false, issues };
    }
  }
  const parsed = tool.inputModelFor(candidate).safeParse(candidate);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) issues.push({ path: fieldPath(issue.path), message: issue.message.replace(/^Invalid input: /, "") });
  }
  return issues.length > 0 ? { ok: false, issues } : { ok: true, arguments: candidate };
}
