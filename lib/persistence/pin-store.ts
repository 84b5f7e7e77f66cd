import { StepOutputSchema, type StepOutput } from "@/lib/contracts/run";
import type { PinnedOutput, PinRecord } from "@/lib/contracts/pins";
import type { RunOutput } from "@/lib/workflow/test-run-plan";
import { getDatabase, type StudioDatabase } from "./database";
import { NotFoundError } from "./errors";
import { newId } from "./ids";

/**
 * Pinned outputs, per workflow and node (the WorkflowPin table): test data
 * that only a test run's start uses (lib/server/test-runs.ts; the editor's
 * field samples show it, lib/server/samples.ts). Callers check
 * what they pin (lib/server/pins.ts); this stores and reads it.
 */

/** Every pin of a workflow, in node id order. A stored output this version cannot read is left out. */
export async function listPins(workflowId: string, database: StudioDatabase = getDatabase()): Promise<PinRecord[]> {
  const rows = await database.workflowPin.findMany({ where: { workflowId }, orderBy: { nodeId: "asc" } });
  return rows.flatMap((row) => {
    const output = readOutput(row.output);
    return output ? [{ nodeId: row.nodeId, output: pinnedPart(output), fromRunId: row.fromRunId, pinnedAt: row.pinnedAt.toISOString() }] : [];
  });
}

/** Pins each output to its node (replacing what was pinned there), all or none. */
export async function putPins(
  workflowId: string,
  pins: readonly { nodeId: string; output: PinnedOutput; fromRunId: string | null }[],
  database: StudioDatabase = getDatabase(),
): Promise<void> {
  const pinnedAt = new Date();
  await database.$transaction(
    pins.map((pin) =>
      database.workflowPin.upsert({
        where: { workflowId_nodeId: { workflowId, nodeId: pin.nodeId } },
        create: { id: newId(), workflowId, nodeId: pin.nodeId, output: JSON.stringify(pin.output), fromRunId: pin.fromRunId, pinnedAt },
        update: { output: JSON.stringify(pin.output), fromRunId: pin.fromRunId, pinnedAt },
      }),
    ),
  );
}

/** Unpins a node; NotFoundError when it had no pin. */
export async function deletePin(workflowId: string, nodeId: string, database: StudioDatabase = getDatabase()): Promise<void> {
  const { count } = await database.workflowPin.deleteMany({ where: { workflowId, nodeId } });
  if (count === 0) throw new NotFoundError("pin", `${workflowId}/${nodeId}`);
}

/** Each node's newest output in the workflow's runs (a step that succeeded with one), for the nodes asked about. */
export async function newestStepOutputs(workflowId: string, nodeIds: readonly string[], database: StudioDatabase = getDatabase()): Promise<Map<string, RunOutput>> {
  const found = new Map<string, RunOutput>();
  // One query per node, walking the workflow's runs newest first (the Run(workflowId, createdAt) index) and
  // probing each run's step by its (runId, nodeId) key: ordering the steps by their run's time instead sorted every
  // step the node ever had, 0.3 s at 20,000 runs with the event loop held.
  for (const nodeId of nodeIds) {
    const run = await database.run.findFirst({
      where: { workflowId, steps: { some: { nodeId, status: "succeeded", output: { not: null } } } },
      // Ids grow with time: they order runs started in the same millisecond.
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      select: { steps: { where: { nodeId }, select: { runId: true, output: true, input: true, attempt: true, startedAt: true, finishedAt: true } } },
    });
    const step = run?.steps[0];
    const output = step ? readOutput(step.output) : null;
    if (!step || !output) continue;
    found.set(nodeId, {
      runId: step.runId,
      output,
      input: step.input === null ? null : safeJson(step.input),
      attempt: step.attempt,
      startedAt: step.startedAt?.toISOString() ?? null,
      finishedAt: step.finishedAt?.toISOString() ?? null,
    });
  }
  return found;
}

/** The workflow's newest run and its inputs, or null when it never ran (or its inputs cannot be read). */
export async function newestRunInputs(workflowId: string, database: StudioDatabase = getDatabase()): Promise<{ runId: string; inputs: Record<string, unknown> } | null> {
  const run = await database.run.findFirst({ where: { workflowId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], select: { id: true, inputs: true } });
  if (!run) return null;
  const inputs = safeJson(run.inputs);
  return inputs !== null && typeof inputs === "object" && !Array.isArray(inputs) ? { runId: run.id, inputs: inputs as Record<string, unknown> } : null;
}

/** What of a step's output a pin keeps: its text, data and route (images are a run's, not test data). */
export function pinnedPart(output: StepOutput): PinnedOutput {
  return { content: output.content, ...(output.data !== undefined ? { data: output.data } : {}), ...(output.route ? { route: output.route } : {}) };
}

function readOutput(text: string | null): StepOutput | null {
  if (text === null) return null;
  const parsed = StepOutputSchema.safeParse(safeJson(text));
  return parsed.success ? parsed.data : null;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
