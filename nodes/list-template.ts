import { StepFailure } from "@/lib/workflow/step-errors";
import { findReferences, resolveTemplates, TemplateError, type TemplateScope } from "@/lib/workflow/templates";
import type { NodeValidationContext } from "./node-kind-server";

// A list a step goes through item by item (a For each loop's items, a Code node's "once per item" mode) is one
// template pointing at upstream data. Both kinds check and read it here, so they say the same things.

/**
 * Adds, on `field`, what is wrong with `template` as a list to go through; nothing when it is one upstream reference.
 * `itemAllowed`: the list may be part of the loop's item (`{{ item.lines }}`), for a step inside a For each body;
 * the workflow's template check then says whether it is in one.
 */
export function checkListTemplate(nodeId: string, template: string, field: string, context: NodeValidationContext, { itemAllowed = false } = {}): void {
  const error = (message: string) => context.problems.push({ nodeId, field, message, severity: "error" });
  const list = template.trim();
  if (list === "") {
    error("Choose the list to go through: a template such as {{ nodes.fetch.data.items }}.");
    return;
  }
  let references;
  try {
    references = findReferences(list);
  } catch (caught) {
    if (!(caught instanceof TemplateError)) throw caught;
    references = null;
  }
  if (references && (references.length !== 1 || !/^\{\{[^{}]*\}\}$/.test(list))) {
    error("The list is one template and nothing else, such as {{ nodes.fetch.data.items }}.");
  } else if (references?.[0]?.kind === "item" && !itemAllowed) {
    error("{{ item }} and {{ index }} exist only inside a loop's body: point the list at an upstream step's data.");
  } else {
    context.checkTemplates(list, field);
  }
}

/** The list `template` names in `scope`; a step failure (not worth retrying) when it is not an array. */
export function resolveList(template: string, scope: TemplateScope): unknown[] {
  const list = resolveTemplates(template.trim(), scope);
  if (Array.isArray(list)) return list;
  const what = list === null || list === undefined ? "empty (nothing there)" : `a ${typeof list}, not a list`;
  throw new StepFailure(`The list ${template.trim()} is ${what}: point it at an array.`, { list: template }, { kind: "invalid-input", retryable: false });
}
