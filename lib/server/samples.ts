import type { NodeSample, SampleQuery, WorkflowSamples } from "@/lib/contracts/samples";
import { getWorkflow } from "@/lib/persistence";
import { listPins, newestRunInputs, newestStepOutputs } from "@/lib/persistence/pin-store";
import { SecretMasker } from "@/lib/tools";
import { storedSecretValues } from "./pins";
import { startStudio } from "./studio";

/**
 * GET /api/workflows/{id}/samples: what the editor maps fields from. Each
 * node's pin, else its newest output in a run (as a test run would choose),
 * and the newest run's inputs. Stored outputs are masked by the tools that
 * produced them and pins refuse secrets; everything is masked once more
 * against the stored secrets here, since a sample is shown beside every field.
 */
export async function workflowSamples(workflowId: string, query: SampleQuery): Promise<WorkflowSamples> {
  const studio = await startStudio();
  const { definition } = await getWorkflow(workflowId, studio.database);
  const wanted = new Set(query.nodeIds ?? definition.nodes.map((node) => node.id));
  const pins = (await listPins(workflowId, studio.database)).filter((pin) => wanted.has(pin.nodeId));
  const pinned = new Set(pins.map((pin) => pin.nodeId));
  const fromRuns = await newestStepOutputs(
    workflowId,
    [...wanted].filter((nodeId) => !pinned.has(nodeId)),
    studio.database,
  );
  const samples: NodeSample[] = [
    ...pins.map((pin): NodeSample => ({ nodeId: pin.nodeId, source: { kind: "pin", fromRunId: pin.fromRunId, pinnedAt: pin.pinnedAt }, content: pin.output.content, ...dataOf(pin.output.data) })),
    ...[...fromRuns].map(([nodeId, step]): NodeSample => ({ nodeId, source: { kind: "run", runId: step.runId, finishedAt: step.finishedAt }, content: step.output.content, ...dataOf(step.output.data) })),
  ].sort((left, right) => left.nodeId.localeCompare(right.nodeId));
  const newest = await newestRunInputs(workflowId, studio.database);
  const masker = new SecretMasker((await storedSecretValues(studio.database)).values());
  return masked({ nodes: samples, inputs: newest ? { runId: newest.runId, values: newest.inputs } : null }, masker);
}

function dataOf(data: unknown): { data?: unknown } {
  return data === undefined ? {} : { data };
}

/** A copy with every string (keys left as they are) passed through the masker. */
function masked<Value>(value: Value, masker: SecretMasker): Value {
  if (masker.isEmpty) return value;
  const visit = (item: unknown): unknown => {
    if (typeof item === "string") return masker.mask(item);
    if (Array.isArray(item)) return item.map(visit);
    if (item !== null && typeof item === "object") return Object.fromEntries(Object.entries(item).map(([key, entry]) => [key, visit(entry)]));
    return item;
  };
  return visit(value) as Value;
}
