import { ERROR_WORKFLOW_INPUTS, triggerFromColumns, type ErrorWorkflowInputs } from "@/lib/contracts/run-trigger";
import { failedRunTraceparent } from "@/lib/observability/trace-context";
import type { StudioDatabase } from "@/lib/persistence";
import { NotFoundError } from "@/lib/persistence/errors";
import { findCalledVersion } from "@/lib/persistence/child-run-queries";
import { errorWorkflowRunOf, findErrorWorkflowVersion } from "@/lib/persistence/run-queries";
import type { RunFailureReport } from "@/lib/workflow/run-engine";
import { inputFieldsOf, runInputsSchema } from "@/lib/workflow/run-inputs";
import type { WorkflowLookup } from "@/lib/workflow/validate-failures";
import type { RunDriver } from "./run-driver";

/**
 * The studio's side of error workflows: finding one to check a workflow's
 * choice, and starting one when a run fails.
 */

/** Looks other workflows up for validation, as their runs as an error workflow or a Sub-workflow step's call would start them. */
export function workflowLookup(database: StudioDatabase, selfId: string | null): WorkflowLookup {
  return {
    selfId,
    find: async (id) => {
      try {
        const version = await findErrorWorkflowVersion(id, database);
        return { name: version.workflowName, inputFields: inputFieldsOf(version.definition) };
      } catch (error) {
        if (NotFoundError.isInstance(error)) return null;
        throw error;
      }
    },
    findCallable: async (id, version) => {
      try {
        const found = await findCalledVersion(id, version, database);
        return { name: found.workflowName, version: found.version, unpublished: found.unpublished, definition: found.definition };
      } catch (error) {
        if (NotFoundError.isInstance(error)) return error.kind === "workflow" ? "no-workflow" : "no-version";
        throw error;
      }
    },
  };
}

/** The inputs a failure gives an error workflow's run, by name. */
export function errorWorkflowInputs(report: RunFailureReport): ErrorWorkflowInputs {
  return {
    runId: report.runId,
    workflowId: report.workflowId,
    workflowName: report.workflowName,
    nodeId: report.nodeId ?? "",
    error: report.error,
    errorKind: report.errorKind ?? "",
  };
}

/**
 * Starts the error workflow a failed run names, with the failure as its
 * inputs (those its Run inputs have a field for), linked to the failed run,
 * and returns its run's id. A failed run whose end is recorded again (a
 * restart cut it short) gets the run it already started.
 */
export function errorWorkflowStarter(database: StudioDatabase, runs: () => RunDriver): (report: RunFailureReport) => Promise<string | null> {
  return async (report) => {
    const started = await errorWorkflowRunOf(report.runId, database);
    if (started) return started;
    const version = await findErrorWorkflowVersion(report.errorWorkflowId, database);
    const given: Record<string, string> = errorWorkflowInputs(report);
    const fields = inputFieldsOf(version.definition).filter((field) => (ERROR_WORKFLOW_INPUTS as readonly string[]).includes(field.name));
    const inputs = runInputsSchema(inputFieldsOf(version.definition)).parse(Object.fromEntries(fields.map((field) => [field.name, given[field.name]])));
    // In the failed run's trace, under its span: what handled a failure is found beside it.
    const failed = await database.run.findUnique({ where: { id: report.runId }, select: { triggerDetail: true } });
    const traceparent = failedRunTraceparent(report.runId, triggerFromColumns("person", null, failed?.triggerDetail ?? null));
    const run = await runs().start(version, inputs, {
      trigger: { kind: "error-workflow", nodeId: null, traceparent },
      source: { id: report.runId, workflowId: report.workflowId, workflowName: report.workflowName, status: "failed", kind: "error-workflow" },
    });
    return run.id;
  };
}
