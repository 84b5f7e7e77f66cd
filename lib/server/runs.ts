import { PERSON_TRIGGER, type RunTrigger } from "@/lib/contracts/run-trigger";
import { findRunnableVersion, type RunDetail, type RunnableVersion, type RunStart, type RunStarter } from "@/lib/persistence/run-queries";
import type { StartRunBody } from "@/lib/validations/run";
import { checkRunStart } from "./run-start-checks";
import { startStudio } from "./studio";

/**
 * Starts a run: checks the inputs against the input node and the workflow
 * against the tools and secrets (422 with every problem, nothing written),
 * then creates the run and hands it to the engine.
 */
export async function startRun(workflowId: string, body: StartRunBody, trigger: RunTrigger = PERSON_TRIGGER, startedBy: RunStarter | null = null): Promise<RunDetail> {
  const studio = await startStudio();
  const version = await findRunnableVersion(workflowId, body.version, studio.database);
  return startCheckedRun(version, body.inputs, { trigger, startedBy });
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
  start: Omit<RunStart, "alongWith">,
  runningNodes?: ReadonlySet<string>,
): Promise<RunDetail> {
  const studio = await startStudio();
  const inputs = await checkRunStart(version, given, { pool: studio.pool(), secrets: studio.secrets, database: studio.database }, runningNodes);
  return studio.runs.start(version, inputs, start);
}
