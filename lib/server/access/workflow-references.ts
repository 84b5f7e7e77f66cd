import { seesEveryWorkflow } from "@/lib/contracts/roles";
import type { StudioDatabase } from "@/lib/persistence";
import type { WorkflowDefinition } from "@/lib/workflow/definition";
import type { WorkflowLookup } from "@/lib/workflow/validate-failures";
import { HttpError } from "../http-error";
import type { Principal } from "./principal";
import { scopesOnWorkflow } from "./workflow-access";

/**
 * A workflow names other workflows whose runs its runs start: a Sub-workflow
 * step's, and its error workflow. Running it runs them, whoever is allowed to
 * run it (a webhook, a schedule, a person it is shared with), so naming one
 * is running it: a person may newly name only a workflow they may run
 * themselves, or a shared workflow's editor (or a copy, an import) would run
 * what was never shared with them, and read its output in their run. One they
 * may not see is refused in the words of one that does not exist, so the
 * refusal says nothing of what is there. What the stored version already
 * named stays, whoever saves: that was its owner's choice.
 */

/** The workflows `definition` starts runs of, with the field naming each. */
export function calledWorkflows(definition: Pick<WorkflowDefinition, "nodes" | "errorWorkflowId">): { path: string; workflowId: string }[] {
  const called = definition.nodes.flatMap((node, index) =>
    node.kind === "subworkflow" && node.workflowId !== "" ? [{ path: `nodes[${index}].workflowId`, workflowId: node.workflowId }] : [],
  );
  if (definition.errorWorkflowId !== undefined) called.push({ path: "errorWorkflowId", workflowId: definition.errorWorkflowId });
  return called;
}

/** Whether `principal` may name any workflow at all: they see and run every one (and may name one still to be made). */
function callsAnything(principal: Principal): boolean {
  return seesEveryWorkflow(principal.role) && principal.scopes.has("workflow:run");
}

/** 422 naming each workflow `definition` newly names (not in `previous`) that `principal` may not run, or that does not exist. */
export async function requireCallableWorkflows(
  principal: Principal,
  definition: Pick<WorkflowDefinition, "nodes" | "errorWorkflowId">,
  previous: Pick<WorkflowDefinition, "nodes" | "errorWorkflowId"> | null,
  database: StudioDatabase,
): Promise<void> {
  if (callsAnything(principal)) return;
  const named = new Set(previous ? calledWorkflows(previous).map((called) => called.workflowId) : []);
  const issues: { path: string; message: string; code: string }[] = [];
  for (const { path, workflowId } of calledWorkflows(definition)) {
    if (named.has(workflowId) || (await scopesOnWorkflow(principal, workflowId, database))?.has("workflow:run")) continue;
    issues.push({ path, message: `there is no workflow with id "${workflowId}" that you may run`, code: "custom" });
  }
  if (issues.length === 0) return;
  throw new HttpError(422, `${issues.map((issue) => `${issue.path}: ${issue.message}`).join("; ")}. Choose one from the list; nothing was saved.`, { issues });
}

/**
 * `lookup` as `principal`'s draft check may use it: a workflow they may not
 * see does not exist there (its name and its inputs are not theirs to read),
 * unless the saved workflow `savedNames` came from names it already.
 */
export function lookupFor(principal: Principal, lookup: WorkflowLookup, savedNames: ReadonlySet<string>, database: StudioDatabase): WorkflowLookup {
  if (seesEveryWorkflow(principal.role)) return lookup;
  const visible = async (id: string) => savedNames.has(id) || (await scopesOnWorkflow(principal, id, database)) !== null;
  const findCallable = lookup.findCallable;
  return {
    selfId: lookup.selfId,
    find: async (id) => ((await visible(id)) ? lookup.find(id) : null),
    ...(findCallable ? { findCallable: async (id, version) => ((await visible(id)) ? findCallable(id, version) : "no-workflow") } : {}),
  };
}
