import type { RunDetail, StepOutput } from "@/lib/contracts/run";
import { runModelPrices } from "@/lib/persistence/run-usage-queries";
import type { RunTrigger } from "@/lib/contracts/run-trigger";
import type { TestRunPreview } from "@/lib/contracts/test-run";
import type { StudioDatabase } from "@/lib/persistence";
import { listPins, newestRunInputs, newestStepOutputs } from "@/lib/persistence/pin-store";
import { findRunnableVersion, type RunnableVersion, type RunStarter } from "@/lib/persistence/run-queries";
import { startsRunsOf } from "@/nodes/definitions";
import { buildGraph } from "@/lib/workflow/scheduler";
import { planTestRun, type TestRunMode, type TestRunPlan } from "@/lib/workflow/test-run-plan";
import { inputFieldsOf } from "@/lib/workflow/run-inputs";
import type { TestRunBody, TestRunQuery } from "@/lib/validations/run";
import { HttpError } from "./http";
import { refuseStoredSecrets } from "./pins";
import { startCheckedRun } from "./runs";
import { stepTitles } from "./step-titles";
import { startStudio } from "./studio";

/**
 * Test runs from the editor: Run this step and Run up to here. They are real
 * runs of the saved draft (the workflow's newest version), stored and listed
 * like any (marked `test`), through the same validation, permission gate and
 * inbox: a destructive step asks. What differs is only what runs: the nodes
 * on the way to the tested node are kept from their pins (or, for Run this
 * step, the workflow's last run, or values typed for the occasion) and the
 * rest is left out. No other run reads pins (the editor's field samples
 * only show them: lib/server/samples.ts).
 */

/** GET /api/workflows/{id}/test-runs: what a test run would run and keep, and what it lacks. */
export async function previewTestRun(workflowId: string, query: TestRunQuery): Promise<TestRunPreview> {
  const studio = await startStudio();
  const version = await findRunnableVersion(workflowId, undefined, studio.database);
  const plan = await planFor(version, query.nodeId, query.mode, new Map(), studio.database);
  const lastInputs = await newestInputsFor(version, studio.database);
  const own = (await newestStepOutputs(workflowId, [query.nodeId], studio.database)).get(query.nodeId);
  return {
    nodeId: query.nodeId,
    mode: query.mode,
    version: version.version,
    sources: plan.sources,
    missing: plan.missing,
    inputs: lastInputs ?? {},
    inputsFrom: lastInputs ? "last-run" : "defaults",
    latest: own ? { runId: own.runId, output: own.output } : null,
  };
}

/** POST /api/workflows/{id}/test-runs: starts the test run; 422 naming `nodeId`, `values.<node>` or `inputs.<field>`. */
export async function startTestRun(workflowId: string, body: TestRunBody, startedBy: RunStarter | null = null): Promise<RunDetail> {
  const studio = await startStudio();
  const version = await findRunnableVersion(workflowId, body.version, studio.database);
  // Typed values are stored with the run as its kept steps' outputs: a stored secret's value is refused, as in a pin.
  await refuseStoredSecrets(
    Object.entries(body.values).map(([nodeId, output]) => ({ path: `values.${nodeId}`, output })),
    studio.database,
  );
  const typed = new Map<string, StepOutput>(Object.entries(body.values));
  const plan = await planFor(version, body.nodeId, body.mode, typed, studio.database);
  if (plan.missing.length > 0) {
    const titleOf = stepTitles(version.definition.nodes, studio.pool());
    throw new HttpError(422, `Nothing to hand the step from ${plan.missing.map(titleOf).join(", ")}: no pin and no run has its output. Pin one, or type the values it should hand on.`, {
      issues: plan.missing.map((nodeId) => ({ path: `values.${nodeId}`, message: "no pin and no run has this step's output: type the values it hands on", code: "custom" })),
    });
  }
  const inputs = body.inputs ?? (await newestInputsFor(version, studio.database)) ?? {};
  const trigger: RunTrigger = { kind: "person", nodeId: null, test: true, testOf: { nodeId: body.nodeId, mode: body.mode } };
  const run = await startCheckedRun(version, inputs, { trigger, carried: plan.carried, excluded: plan.excluded, startedBy }, new Set(plan.runs));
  // The editor shows the test run from this answer: its agent steps' prices with it (not a hot path, unlike a run's start).
  return { ...run, modelPrices: await runModelPrices(run.definition, [], studio.database) };
}

/** The plan for testing `nodeId` in `version`, with the workflow's pins and newest outputs; 422 for a node that cannot be tested. */
async function planFor(version: RunnableVersion, nodeId: string, mode: TestRunMode, typed: ReadonlyMap<string, StepOutput>, database: StudioDatabase): Promise<TestRunPlan> {
  const definition = version.definition;
  const node = definition.nodes.find((each) => each.id === nodeId);
  const refuse = (message: string) => new HttpError(422, message, { issues: [{ path: "nodeId", message, code: "custom" }] });
  // The step is the one the person is testing, so it needs no name here (and an unsaved one has no saved label).
  if (!node) throw refuse("This step is not in the saved workflow yet: save the workflow, then test it.");
  if (!buildGraph(definition).nodeIds.includes(nodeId)) throw refuse("A tool attached to an agent runs when the agent calls it: test the agent instead.");
  if (startsRunsOf(node.kind) === "on-trigger") throw refuse("A trigger runs when it fires: use its test address (Listen for a test delivery) or pin what it should hand on.");
  const pins = new Map((await listPins(version.workflowId, database)).map((pin) => [pin.nodeId, { output: pin.output as StepOutput, fromRunId: pin.fromRunId }]));
  // Only what could be kept from a run is looked up: the nodes upstream of the tested one, without a pin (for Run up to here, its triggers).
  const kinds = new Map(definition.nodes.map((each) => [each.id, each.kind]));
  const keepable = (id: string) => {
    const starts = startsRunsOf(kinds.get(id)!);
    // The run inputs always run; Run up to here runs everything else on its way but the triggers.
    return starts !== "manually" && (mode === "step" || starts === "on-trigger");
  };
  const wanted = upstreamOf(definition, nodeId).filter((id) => !pins.has(id) && keepable(id));
  const lastRun = await newestStepOutputs(version.workflowId, wanted, database);
  return planTestRun(definition, nodeId, mode, { pins, lastRun, typed });
}

/** Every node upstream of `nodeId` (its edges walked back), in no particular order. */
function upstreamOf(definition: RunnableVersion["definition"], nodeId: string): string[] {
  const graph = buildGraph(definition);
  const seen = new Set<string>();
  const queue = [nodeId];
  while (queue.length > 0) {
    for (const edge of graph.incoming.get(queue.shift()!) ?? []) {
      if (seen.has(edge.source)) continue;
      seen.add(edge.source);
      queue.push(edge.source);
    }
  }
  return [...seen];
}

/**
 * The inputs of the workflow's newest run, as far as this version's input
 * node still asks for them (a field renamed or removed since is left out, not
 * refused), or null when it never ran.
 */
async function newestInputsFor(version: RunnableVersion, database: StudioDatabase): Promise<Record<string, unknown> | null> {
  const newest = await newestRunInputs(version.workflowId, database);
  if (!newest) return null;
  const { inputs } = newest;
  const names = new Set(inputFieldsOf(version.definition).map((field) => field.name));
  return Object.fromEntries(Object.entries(inputs).filter(([name]) => names.has(name)));
}
