import type { ApiIssue } from "@/lib/contracts/api-error";
import { PinnedOutputSchema, type PinBody, type PinnedOutput, type PinRecord, type PinsFromRunBody } from "@/lib/contracts/pins";
import type { RunDetail } from "@/lib/contracts/run";
import { getWorkflow, listSecrets, resolveSecret, type StudioDatabase } from "@/lib/persistence";
import { deletePin, listPins, pinnedPart, putPins } from "@/lib/persistence/pin-store";
import { getRunDetail } from "@/lib/persistence/run-queries";
import { fieldPath } from "@/lib/tools/validation";
import { pinnableNodeIds } from "@/lib/workflow/test-run-plan";
import { storedSecretsIn } from "@/lib/workflow/secret-looking";
import { requireOfWorkflow } from "./access/run-view";
import { HttpError, toApiIssues } from "./http";
import { stepTitles } from "./step-titles";
import { startStudio } from "./studio";

/**
 * Pinning: a node's output kept as test data for the editor's test runs. A
 * pin names a node of the workflow's newest version, is checked on the way
 * in (the contract's shape and credential-shaped values, then the values of
 * the studio's stored secrets), and is used by nothing but a test run's
 * start (the editor's field samples show it, lib/server/samples.ts):
 * production runs, published triggers and shared exports never see it.
 */

/** GET /api/workflows/{id}/pins. */
export async function workflowPins(workflowId: string): Promise<PinRecord[]> {
  const studio = await startStudio();
  await getWorkflow(workflowId, studio.database);
  return listPins(workflowId, studio.database);
}

/** PUT /api/workflows/{id}/pins/{nodeId}: typed JSON, or the node's output in one of the workflow's runs. */
export async function pinNode(workflowId: string, nodeId: string, body: PinBody): Promise<PinRecord> {
  const studio = await startStudio();
  const pinnable = await pinnableNodes(workflowId, studio.database);
  if (!pinnable.has(nodeId)) {
    throw new HttpError(422, "This step is not in the workflow's saved version yet: save the workflow, then pin it.", {
      issues: [{ path: "nodeId", message: "not in the saved workflow yet", code: "custom" }],
    });
  }
  let output: PinnedOutput;
  let fromRunId: string | null = null;
  if (body.output !== undefined) {
    output = body.output;
  } else {
    const runId = body.fromRunId!;
    const run = await runOf(workflowId, runId, studio.database);
    const step = run.steps.find((each) => each.nodeId === nodeId);
    if (!step || step.status !== "succeeded" || step.output === null) {
      const title = stepTitles(run.definition.nodes, studio.pool())(nodeId);
      throw new HttpError(422, `The step ${title} did not succeed in run ${runId}, so it has no output to pin.`, {
        issues: [{ path: "fromRunId", message: `the step ${title} has no output in that run`, code: "custom" }],
      });
    }
    output = checkedShape(pinnedPart(step.output), "output");
    fromRunId = run.id;
  }
  await refuseStoredSecrets([{ path: "output", output }], studio.database);
  await putPins(workflowId, [{ nodeId, output, fromRunId }], studio.database);
  const pins = await listPins(workflowId, studio.database);
  return pins.find((pin) => pin.nodeId === nodeId)!;
}

/** DELETE /api/workflows/{id}/pins/{nodeId}; 404 when the node had no pin. */
export async function unpinNode(workflowId: string, nodeId: string): Promise<void> {
  const studio = await startStudio();
  await getWorkflow(workflowId, studio.database);
  await deletePin(workflowId, nodeId, studio.database);
}

/** What Copy to editor pinned, and the steps it could not (with why). */
export interface PinsFromRun {
  pinned: string[];
  refused: { nodeId: string; reason: string }[];
  pins: PinRecord[];
}

/**
 * POST /api/workflows/{id}/pins (Copy to editor): every step of a run of this
 * workflow that succeeded with an output, and whose node the newest version
 * still has, is pinned (replacing that node's pin). A step whose output holds
 * something credential-like is not pinned and is listed with the reason.
 */
export async function pinRunOutputs(workflowId: string, body: PinsFromRunBody): Promise<PinsFromRun> {
  const studio = await startStudio();
  const pinnable = await pinnableNodes(workflowId, studio.database);
  const run = await runOf(workflowId, body.fromRunId, studio.database);
  const wanted = body.nodeIds ? new Set(body.nodeIds) : null;
  const secrets = await storedSecretValues(studio.database);
  const pinned: { nodeId: string; output: PinnedOutput; fromRunId: string }[] = [];
  const refused: { nodeId: string; reason: string }[] = [];
  for (const step of run.steps) {
    if (wanted && !wanted.has(step.nodeId)) continue;
    if (step.status !== "succeeded" || step.output === null || !pinnable.has(step.nodeId)) continue;
    const output = pinnedPart(step.output);
    const issues = [...shapeIssues(output, "output"), ...storedSecretsIn(output, secrets).map((found) => issueAt("output", found.path, found.reason))];
    if (issues.length > 0) refused.push({ nodeId: step.nodeId, reason: issues.map((issue) => `${issue.path}: ${issue.message}`).join("; ") });
    else pinned.push({ nodeId: step.nodeId, output, fromRunId: run.id });
  }
  if (pinned.length > 0) await putPins(workflowId, pinned, studio.database);
  return { pinned: pinned.map((pin) => pin.nodeId), refused, pins: await listPins(workflowId, studio.database) };
}

/**
 * The steps of the workflow's newest version that a pin can stand in for:
 * not tools attached to an agent (the agent's, not steps), not the run inputs
 * (a test run hands on its own inputs; a pin there would never be used).
 */
async function pinnableNodes(workflowId: string, database: StudioDatabase): Promise<Set<string>> {
  const { definition } = await getWorkflow(workflowId, database);
  return new Set(pinnableNodeIds(definition));
}

async function runOf(workflowId: string, runId: string, database: StudioDatabase): Promise<RunDetail> {
  // Another workflow's run is no run of this one's: the same 404 as a run that does not exist.
  return requireOfWorkflow(workflowId, await getRunDetail(runId, database), "run", runId);
}

/** The output as the contract takes it, or 422 naming each field that is not. */
function checkedShape(output: PinnedOutput, prefix: string): PinnedOutput {
  const issues = shapeIssues(output, prefix);
  if (issues.length > 0) throw refusal(issues);
  return output;
}

function shapeIssues(output: PinnedOutput, prefix: string): ApiIssue[] {
  const parsed = PinnedOutputSchema.safeParse(output);
  return parsed.success ? [] : toApiIssues(parsed.error).map((issue) => ({ ...issue, path: `${prefix}.${issue.path}` }));
}

/**
 * 422 when an output (a pin, or values typed for a test run: both are stored as
 * typed) holds a stored secret's value, named by the secret's name, never its value.
 */
export async function refuseStoredSecrets(outputs: readonly { path: string; output: PinnedOutput }[], database: StudioDatabase): Promise<void> {
  const secrets = await storedSecretValues(database);
  const issues = outputs.flatMap(({ path, output }) => storedSecretsIn(output, secrets).map((found) => issueAt(path, found.path, found.reason)));
  if (issues.length > 0) throw refusal(issues);
}

function refusal(issues: ApiIssue[]): HttpError {
  return new HttpError(422, `Not stored: ${issues.map((issue) => `${issue.path}: ${issue.message}`).join("; ")}`, { issues });
}

function issueAt(prefix: string, path: readonly (string | number)[], message: string): ApiIssue {
  return { path: fieldPath(path, prefix), message, code: "custom" };
}

/** Each stored secret's value by name, to recognise them in pinned data. */
export async function storedSecretValues(database: StudioDatabase): Promise<Map<string, string>> {
  const values = new Map<string, string>();
  for (const secret of await listSecrets(database)) {
    const value = await resolveSecret(secret.name, database);
    if (value) values.set(secret.name, value);
  }
  return values;
}
