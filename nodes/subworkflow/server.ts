import { ChildRunRefused, type ChildRunStarted } from "@/lib/workflow/child-runs";
import { inputFieldsOf } from "@/lib/workflow/run-inputs";
import { RunCancelled, StepFailure } from "@/lib/workflow/step-errors";
import { asText, resolveTemplates } from "@/lib/workflow/templates";
import { waitForChildRun } from "../child-run-wait";
import type { NodeExecutionContext, NodeKindServer, NodeValidationContext, StepResult } from "../node-kind-server";
import { PUBLISHED_VERSION, type SubWorkflowNode } from "./definition";
import { findCallCycle } from "./call-cycles";

export const subWorkflowServer: NodeKindServer<SubWorkflowNode> = {
  validate: checkSubWorkflowNode,
  execute: runSubWorkflowNode,
};

/**
 * The called workflow exists (and the pinned version), the mapping names only
 * its run inputs and covers those it requires, each template points at
 * something, and calling it does not loop back to this workflow (or into any
 * other loop of calls) through the saved versions it would run.
 */
async function checkSubWorkflowNode(node: SubWorkflowNode, context: NodeValidationContext): Promise<void> {
  const error = (field: string, message: string, severity: "error" | "warning" = "error") => context.problems.push({ nodeId: node.id, field, message, severity });
  for (const [name, template] of Object.entries(node.inputs)) context.checkTemplates(template, `inputs.${name}`);
  if (node.workflowId === "") {
    error("workflowId", "Choose the workflow this step calls.");
    return;
  }
  const lookup = context.workflows;
  if (!lookup?.findCallable) return;
  if (node.workflowId === lookup.selfId) {
    error("workflowId", "A workflow cannot call itself: its run would start another run of it, without end. Choose another workflow.");
    return;
  }
  const callee = await lookup.findCallable(node.workflowId, node.version);
  if (callee === "no-workflow") {
    error("workflowId", `There is no workflow with id "${node.workflowId}" (it may have been deleted): choose another workflow.`);
    return;
  }
  if (callee === "no-version") {
    error("version", `That workflow has no version ${String(node.version)}: choose one of its saved versions, or its published version.`);
    return;
  }
  if (callee.unpublished && node.version === PUBLISHED_VERSION) {
    error(
      "version",
      `“${callee.name}” is not published, so runs call its newest saved version (version ${callee.version}) until it is. Publish it, or pin a version.`,
      "warning",
    );
  }
  const fields = inputFieldsOf(callee.definition);
  const known = new Set(fields.map((field) => field.name));
  for (const name of Object.keys(node.inputs)) {
    if (!known.has(name)) {
      error(`inputs.${name}`, `“${callee.name}” has no run input “${name}”; its run inputs are ${fields.map((field) => field.name).join(", ") || "none"}. Remove this mapping.`);
    }
  }
  for (const field of fields) {
    const mapped = node.inputs[field.name];
    if ((mapped === undefined || mapped.trim() === "") && field.required && field.default === undefined) {
      error(`inputs.${field.name}`, `“${callee.name}” needs its run input “${field.name}”: give it a value or a template such as {{ inputs.${field.name} }}.`);
    }
  }
  const cycle = await findCallCycle(lookup.selfId, context.definition.name, { id: node.workflowId, version: node.version, callee }, lookup.findCallable);
  if (cycle) error("workflowId", cycle);
}

/**
 * Starts the called workflow's run with the mapped inputs (or, replaying the
 * same attempt, finds the one it started) and waits for it: its output is
 * this step's, its failure this step's with the same kind, so this step's
 * retries and error path apply. A cancel of this run cancels the child (the
 * engine, when this run ends); a time limit that passes cancels it here.
 */
async function runSubWorkflowNode(node: SubWorkflowNode, context: NodeExecutionContext): Promise<StepResult> {
  if (!context.childRuns) throw new StepFailure("A Sub-workflow step calls a saved workflow, so it runs only in the studio, not from a workflow file.", undefined, { kind: "unavailable", retryable: false });
  const scope = context.scope();
  const inputs = Object.fromEntries(Object.entries(node.inputs).flatMap(([name, template]) => (template === "" ? [] : [[name, resolveTemplates(template, scope)]])));
  let child: ChildRunStarted;
  try {
    child = await context.childRuns.start({
      parent: { runId: context.runId, workflowId: context.workflowId, nodeId: node.id, attempt: context.attempt, permissions: { mode: context.mode, guardrails: context.guardrails } },
      workflowId: node.workflowId,
      version: node.version,
      inputs,
    });
  } catch (error) {
    if (ChildRunRefused.isInstance(error)) throw new StepFailure(error.message, { workflowId: node.workflowId, version: node.version, inputs }, { kind: error.kind });
    throw error;
  }
  const recorded = { workflowId: child.workflowId, workflowName: child.workflowName, version: child.version, runId: child.runId, inputs };
  if (!child.announced) {
    await context.emit("child-run-started", { runId: child.runId, workflowId: child.workflowId, workflowName: child.workflowName, version: child.version });
  }
  const outcome = await waitForChildRun(context, child.runId);
  if (outcome.status === "succeeded") {
    const output = outcome.output;
    return { output: { content: asText(output), ...(typeof output === "string" || output === null || output === undefined ? {} : { data: output }) }, input: recorded };
  }
  if (outcome.status === "cancelled") {
    if (context.cancelled()) throw new RunCancelled();
    throw new StepFailure(`The run of “${child.workflowName}” it called was cancelled.`, recorded, { kind: "cancelled" });
  }
  throw new StepFailure(`“${child.workflowName}” failed: ${outcome.error}`, recorded, { kind: outcome.errorKind ?? "failed" });
}
