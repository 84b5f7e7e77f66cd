import { secretsOfWorkflow } from "@/lib/tools/secrets";
import type { SecretResolver, ToolPool } from "@/lib/tools";
import type { StudioDatabase } from "@/lib/persistence";
import type { RunnableVersion } from "@/lib/persistence/run-queries";
import { inputFieldsOf, runInputsSchema } from "@/lib/workflow/run-inputs";
import { HttpError, toApiIssues } from "./http";
import { workflowLookup } from "./error-workflows";
import { validateForRun } from "./run-validation";

/**
 * The inputs a run of `version` starts with, once they and the workflow pass
 * the checks every start passes (HttpError 422 with every problem otherwise):
 * a person's Run, a retry, a Sub-workflow step's call.
 */
export async function checkRunStart(
  version: RunnableVersion,
  given: Record<string, unknown>,
  context: { pool: ToolPool; secrets: SecretResolver; database: StudioDatabase },
  runningNodes?: ReadonlySet<string>,
): Promise<Record<string, unknown>> {
  const definition = version.definition;
  const inputs = runInputsSchema(inputFieldsOf(definition)).safeParse(given);
  if (!inputs.success) {
    const issues = toApiIssues(inputs.error).map((issue) => ({ ...issue, path: `inputs.${issue.path}` }));
    throw new HttpError(422, `The run's inputs are not valid: ${issues.map((issue) => `${issue.path}: ${issue.message}`).join("; ")}`, { issues });
  }
  const validation = await validateForRun(version.versionId, definition, { pool: context.pool, secrets: secretsOfWorkflow(context.secrets, version.workflowId), workflows: workflowLookup(context.database, version.workflowId) });
  // A test run (runningNodes): only problems of the workflow as a whole and of the nodes that will run stop it.
  const errors = validation.problems.filter(
    (problem) => problem.severity === "error" && (!runningNodes || problem.nodeId === null || runningNodes.has(problem.nodeId)),
  );
  if (errors.length > 0) {
    throw new HttpError(422, `The workflow cannot run yet: ${errors.map((problem) => describe(problem)).join("; ")}`, {
      problems: validation.problems,
    });
  }
  return inputs.data;
}

function describe(problem: { nodeId: string | null; field: string | null; message: string }): string {
  const where = [problem.nodeId, problem.field].filter(Boolean).join(".");
  return where ? `${where}: ${problem.message}` : problem.message;
}
