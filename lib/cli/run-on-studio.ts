import { setTimeout as sleep } from "node:timers/promises";
import type { RunDetail } from "@/lib/contracts/run";
import type { WorkflowChoicesResponse } from "@/lib/contracts/workflow-list";
import type { RunEvent } from "@/lib/contracts/run-event";
import { toVisibleString } from "@/lib/tools/permissions/visible-text";
import { describeEvent, displayValue } from "./event-lines";
import type { CliStreams } from "./run-workflow-file";
import { followRunEvents, StudioRefusal, studioRequest, type StudioAccess } from "./studio-client";
import { UsageError, type RemoteRunCommand, type RemoteStatusCommand } from "./workflow-cli-arguments";

/**
 * `npm run workflow -- run WORKFLOW --studio URL` and `status RUN_ID`: a run
 * on a running studio, through its HTTP API with a personal access token
 * (lib/cli/studio-client.ts). The studio drives the run and checks every
 * scope; this prints what happens and says where a decision is to be made.
 */

/** Exit statuses beyond run-workflow-file's 0 (succeeded) and 1 (failed or cancelled); 2, usage, is a thrown UsageError. */
export const EXIT_WAITING = 3;
export const EXIT_REFUSED = 4;

const FINISHED = new Set(["succeeded", "failed", "cancelled"]);
/** After a stream the server closed before the run ended, how long before following it again. */
const RECONNECT_MS = 1000;

type Streams = Pick<CliStreams, "stdout" | "stderr">;

/** Starts the run, follows it to its end (or to its first decision with --no-wait) and returns the exit status. */
export async function runOnStudio(command: RemoteRunCommand, streams: Streams): Promise<number> {
  return refusalsAsStatus(streams, async () => {
    const run = await startRun(command, command.workflow);
    const info = command.json ? streams.stderr : streams.stdout;
    info.write(`Started run ${run.id} of “${visible(run.workflowName)}” (version ${run.version}) on ${command.studio}\nFollow it in the studio: ${runPage(command, run.id)}\n`);
    return await follow(command, run.id, streams);
  });
}

/** Prints a run's status, its steps and its output or error; 0 succeeded, 1 failed or cancelled, 3 not finished. */
export async function runStatusOnStudio(command: RemoteStatusCommand, streams: Streams): Promise<number> {
  return refusalsAsStatus(streams, async () => {
    const { run } = await studioRequest<{ run: RunDetail }>(command, "GET", `/api/runs/${encodeURIComponent(command.runId)}`, "read the run");
    if (command.json) {
      streams.stdout.write(`${JSON.stringify({ id: run.id, workflowId: run.workflowId, workflowName: run.workflowName, version: run.version, status: run.status, output: run.output, error: run.error, steps: run.steps.map(({ nodeId, status }) => ({ nodeId, status })) })}\n`);
    } else {
      streams.stdout.write(`Run ${run.id} of “${visible(run.workflowName)}” (version ${run.version}): ${run.status}\n`);
      for (const step of run.steps) streams.stdout.write(`  [${visible(step.nodeId)}] ${step.status}\n`);
      writeEnd(command, run, streams.stdout);
    }
    if (run.status === "succeeded") return 0;
    if (run.status === "failed" || run.status === "cancelled") return 1;
    if (run.approvals.some((approval) => approval.status === "pending")) streams.stdout.write(waitingLine(command, run.id));
    return EXIT_WAITING;
  });
}

/** What a refusal means to the person at the terminal, and its exit status: 2 for a workflow or run not found, 4 for the token, 1 otherwise. */
async function refusalsAsStatus(streams: Streams, work: () => Promise<number>): Promise<number> {
  try {
    return await work();
  } catch (error) {
    if (!StudioRefusal.isInstance(error)) throw error;
    if (error.status === 404 || error.status === 422) throw new UsageError(error.message, [], false);
    streams.stderr.write(`workflow: ${error.message}\n`);
    return error.status === 401 || error.status === 403 ? EXIT_REFUSED : 1;
  }
}

/**
 * POST /api/workflows/{id}/runs with the argument as the id first (a token
 * that may start runs but not list workflows still can, by id); when no
 * workflow has that id, the one workflow of exactly that name.
 */
async function startRun(command: RemoteRunCommand, workflow: string): Promise<RunDetail> {
  const start = (id: string) => studioRequest<{ run: RunDetail }>(command, "POST", `/api/workflows/${encodeURIComponent(id)}/runs`, "start the run", { inputs: command.inputs });
  try {
    return (await start(workflow)).run;
  } catch (error) {
    if (!StudioRefusal.isInstance(error) || error.status !== 404) throw error;
  }
  const query = new URLSearchParams({ search: workflow.slice(0, 200) });
  const { workflows } = await studioRequest<WorkflowChoicesResponse>(command, "GET", `/api/workflows/choices?${query}`, `find the workflow “${workflow}”`);
  const named = workflows.filter((each) => each.name === workflow);
  if (named.length === 0) throw new UsageError(`No workflow has the id or the name “${workflow}” (among those this token may see).`, [], false);
  if (named.length > 1) {
    throw new UsageError(`${named.length} workflows are named “${workflow}”: give the id of the one to run.`, named.map((each) => `${each.id} (version ${each.latestVersion})`), false);
  }
  return (await start(named[0]!.id)).run;
}

/** Follows the run's events until it ends; with --no-wait, until it first waits for a decision. */
async function follow(command: RemoteRunCommand, runId: string, streams: Streams): Promise<number> {
  const stop = new AbortController();
  let waiting = false;
  const onEvent = (event: RunEvent) => {
    if (command.json) streams.stdout.write(`${JSON.stringify(event)}\n`);
    else for (const line of describeEvent(event)) streams.stdout.write(`${line}\n`);
    if (event.type !== "approval-requested") return;
    (command.json ? streams.stderr : streams.stdout).write(waitingLine(command, runId, command.wait));
    if (!command.wait) {
      waiting = true;
      stop.abort();
    }
  };
  let seq = 0;
  for (;;) {
    try {
      seq = await followRunEvents(command, runId, seq, onEvent, stop.signal);
    } catch (error) {
      if (!stop.signal.aborted) throw error;
    }
    if (waiting) return EXIT_WAITING;
    const { run } = await studioRequest<{ run: RunDetail }>(command, "GET", `/api/runs/${encodeURIComponent(runId)}`, "read the run");
    if (FINISHED.has(run.status)) {
      if (!command.json) writeEnd(command, run, streams.stdout);
      return run.status === "succeeded" ? 0 : 1;
    }
    // The server closed the stream (it restarted, or a proxy timed out): on from the last event seen.
    await sleep(RECONNECT_MS);
  }
}

function writeEnd(access: StudioAccess, run: RunDetail, out: NodeJS.WritableStream): void {
  if (run.status === "succeeded") out.write(`\nOutput:\n${displayValue(run.output)}\n`);
  else if (run.status === "failed") out.write(`\nThe run failed${run.error ? `: ${visible(run.error)}` : "."} See ${runPage(access, run.id)}\n`);
}

function waitingLine(access: StudioAccess, runId: string, keepsWaiting = false): string {
  return `The run waits for a decision: decide it in the studio's inbox, ${access.studio}/inbox (or on the run's page, ${runPage(access, runId)}), as someone who may decide approvals on this workflow.${keepsWaiting ? " Waiting…" : ""}\n`;
}

function runPage(access: StudioAccess, runId: string): string {
  return `${access.studio}/runs/${encodeURIComponent(runId)}`;
}

/** Names come from people and models: escape what a terminal would obey or hide. */
function visible(text: string): string {
  return toVisibleString(text, { keepLineFeeds: false, keepTabs: true, blankRun: 40 });
}
