import { FINISHED_RUN_STATUSES, type RerunKind, type RunDetail } from "@/lib/contracts/run";
import { findRunnableVersion, getRunDetail, type RunnableVersion, type RunStarter } from "@/lib/persistence/run-queries";
import type { RerunBody } from "@/lib/validations/run";
import { HttpError } from "./http";
import { rerunStart } from "./rerun-start";
import { startCheckedRun } from "./runs";
import { startStudio } from "./studio";

/**
 * Runs made from a finished run: a retry from the failed step (the same
 * version, what succeeded kept, the rest run) and a run again (from the start,
 * on the same or the newest version). Both take the source's inputs and what
 * its trigger node received, pass the same checks as Run (422), and are
 * linked to the source (its page lists them). Approvals are never carried: a
 * destructive step that runs again asks again.
 */

/** POST /api/runs/{id}/retry. 409 unless the run failed or was cancelled. */
export async function retryFromFailure(sourceRunId: string, startedBy: RunStarter | null = null): Promise<RunDetail> {
  const studio = await startStudio();
  const source = await getRunDetail(sourceRunId, studio.database);
  refuseUnfinished(source, "retried");
  if (source.status === "succeeded") {
    throw new HttpError(409, "The run succeeded: no step failed, so there is nothing to retry from. Use Run again to run it from the start.");
  }
  const version = await findRunnableVersion(source.workflowId, source.version, studio.database);
  return startRerun(source, version, "retry-from-failure", startedBy);
}

/** POST /api/runs/{id}/rerun. 409 while the run has not finished. */
export async function runAgain(sourceRunId: string, body: RerunBody, startedBy: RunStarter | null = null): Promise<RunDetail> {
  const studio = await startStudio();
  const source = await getRunDetail(sourceRunId, studio.database);
  refuseUnfinished(source, "run again");
  const version = await findRunnableVersion(source.workflowId, body.version === "same" ? source.version : undefined, studio.database);
  return startRerun(source, version, "run-again", startedBy);
}

function refuseUnfinished(source: RunDetail, what: string): void {
  if (FINISHED_RUN_STATUSES.has(source.status)) return;
  const status = source.status === "awaiting_input" ? "waiting for a person" : source.status;
  throw new HttpError(409, `The run has not finished (it is ${status}), so it cannot be ${what} yet. Wait for it to finish, or cancel it first.`);
}

/** The new run is the person's who asked for it, not the source run's starter's. */
function startRerun(source: RunDetail, version: RunnableVersion, kind: RerunKind, startedBy: RunStarter | null): Promise<RunDetail> {
  return startCheckedRun(version, source.inputs, { ...rerunStart(source, version, kind), startedBy });
}
