import { PERSON_TRIGGER, type RunTrigger } from "@/lib/contracts/run-trigger";
import { findRunnableVersion, type RunDetail, type RunnableVersion, type RunStart } from "@/lib/persistence/run-queries";
import { inputFieldsOf, runInputsSchema } from "@/lib/workflow/run-inputs";
import type { StartRunBody } from "@/lib/validations/run";
import { HttpError, toApiIssues } from "./http";
import { workflowLookup } from "./error-workflows";
import { validateForRun } from "./run-validation";
import { startStudio } from "./studio";

/**
 * Starts a run: checks the inputs against the input node and the workflow
 * against the tools and secrets (422 with every problem, nothing written),
 * then creates the run and hands it to the engine.
 */
export async function startRun(workflowId: string, body: StartRunBody, trigger: RunTrigger = PERSON_TRIGGER): Promise<RunDetail> {
  const studio = await startStudio();
  const version = await findRunnableVersion(workflowId, body.version, studio.database);
  return startCheckedRun(version, body.inputs, { trigger });
}

/**
 * Starts a run of `version` once its inputs and the workflow pass the same
 * checks as a run started with Run (422 with every problem, nothing written).
 * `runningNodes` (a test run): only problems of the workflow as a whole and of
 * the nodes that will run stop it, so a half-built step further on does not
 * keep a person from testing this one; what is kept or left out never runs.
 */
export async function startCheckedRun(
  version: RunnableVersion,
  given: Record<string, unknown>,
  start: Omit<RunStart, "withinTransaction">,
  runningNodes?: ReadonlySet<string>,
): Promise<RunDetail> {
  const studio = await startStudio();
  const definition = version.definition;
  const inputs = runInputsSchema(inputFieldsOf(definition)).safeParse(given);
  if (!inputs.success) {
    const issues = toApiIssues(inputs.error).map((issue) => ({ ...issue, path: `inputs.${issue.path}` }));
    throw new HttpError(422, `The run's inputs are not valid: ${issues.map((issue) => `${issue.path}: ${issue.message}`).join("; ")}`, { issues });
  }
  const validation = await validateForRun(version.versionId, definition, { pool: studio.pool(), secrets: studio.secrets, workflows: workflowLookup(studio.database, version.workflowId) });
  const blocking = validation.problems.filter(
    (problem) => problem.severity === "error" && (!runningNodes || problem.nodeId === null || runningNodes.has(problem.nodeId)),
  );
  if (blocking.length > 0) {
    const errors = blocking;
    throw new HttpError(422, `The workflow cannot run yet: ${errors.map((problem) => describe(problem)).join("; ")}`, {
      problems: validation.problems,
    });
  }
  return studio.runs.start(version, inputs.data, start);
}

function describe(problem: { nodeId: string | null; field: string | null; message: string }): string {
  const where = [problem.nodeId, problem.field].filter(Boolean).join(".");
  return where ? `${where}: ${problem.message}` : problem.message;
}
