/**
 * Mapping a field from real data: the groups the "From…" picker and the `{{`
 * completions offer a node (its run inputs and upstream nodes, each with the
 * fields of its sample), and the preview of a bound field's value, resolved by
 * the engine's own template resolver on a scope built from the samples the
 * way the engine builds its own (scopeEntryOf), so preview and run agree.
 */
import type { NodeSample, WorkflowSamples } from "@/lib/contracts/samples";
import type { InputField } from "@/lib/workflow/definition";
import { findReferences, resolveTemplates, scopeEntryOf, TemplateError, type TemplateScope } from "@/lib/workflow/templates";
import type { ReferenceOption } from "@/lib/schema-form/references";
import { shortRunId } from "@/lib/run-view/run-lineage";
import { flattenFields, previewOf, sampleField, typeOf, type SampleField } from "./sample-paths";

/** The samples as the editor holds them: by node, and the run inputs a preview reads. */
export interface SampleScope {
  nodes: ReadonlyMap<string, NodeSample>;
  /** The newest run's inputs over the input fields' defaults; `runId` null when the workflow never ran. */
  inputs: { runId: string | null; values: Readonly<Record<string, unknown>> };
}

/** No samples at all: outside an editor, or before the first answer. */
export const EMPTY_SAMPLE_SCOPE: SampleScope = { nodes: new Map(), inputs: { runId: null, values: {} } };

export function sampleScopeOf(samples: WorkflowSamples | null, inputFields: readonly InputField[]): SampleScope {
  const values: Record<string, unknown> = {};
  for (const field of inputFields) if (field.default !== undefined) values[field.name] = field.default;
  for (const field of inputFields) if (samples?.inputs && Object.hasOwn(samples.inputs.values, field.name)) values[field.name] = samples.inputs.values[field.name];
  return {
    nodes: new Map((samples?.nodes ?? []).map((sample) => [sample.nodeId, sample])),
    inputs: { runId: samples?.inputs?.runId ?? null, values },
  };
}

/** One branch of the picker: the run inputs, or one upstream node with the fields of its sample. */
export interface ReferenceGroup {
  /** `inputs`, or the node's id. */
  id: string;
  label: string;
  /** Where its values come from: "pinned", "from run #K8R1T6", "defaults"; null when there is no sample. */
  source: string | null;
  /** Why its fields have no values yet, and what to do: "Run or pin “Fetch” to see its fields." */
  missing: string | null;
  fields: SampleField[];
}

/** The picker's groups for the options a node may refer to (referenceOptions), filled from the samples. */
export function referenceGroups(options: readonly ReferenceOption[], scope: SampleScope): ReferenceGroup[] {
  const groups: ReferenceGroup[] = [];
  const inputs = options.flatMap((option) => (option.source.kind === "input" ? [{ option, name: option.source.name }] : []));
  if (inputs.length > 0) {
    const anyValue = inputs.some(({ name }) => Object.hasOwn(scope.inputs.values, name));
    groups.push({
      id: "inputs",
      label: "Run inputs",
      source: scope.inputs.runId ? `from run ${shortRunId(scope.inputs.runId)}` : anyValue ? "defaults" : null,
      missing: anyValue ? null : "No run yet: start a run to see the inputs' values.",
      fields: inputs.map(({ option, name }) =>
        Object.hasOwn(scope.inputs.values, name)
          ? sampleField(`inputs.${name}`, option.label, scope.inputs.values[name])
          : emptyField(`inputs.${name}`, option.label),
      ),
    });
  }
  // Inside a For each loop's body: the item and its index, known only once the loop runs (no sample to show).
  const item = options.flatMap((option) => (option.source.kind === "item" ? [{ option, name: option.source.name }] : []));
  if (item.length > 0) {
    groups.push({
      id: "item",
      label: "This item",
      source: null,
      missing: "Each item of the loop's list in turn: its value is known when the loop runs.",
      fields: item.map(({ option, name }) => emptyField(name, option.label)),
    });
  }
  for (const option of options) {
    if (option.source.kind !== "node") continue;
    const { nodeId, title } = option.source;
    const sample = scope.nodes.get(nodeId);
    const label = `${title} (${nodeId})`;
    if (!sample) {
      groups.push({ id: nodeId, label, source: null, missing: `No sample yet: run or pin “${title}” to see its fields.`, fields: [emptyField(`nodes.${nodeId}.output`, "output")] });
      continue;
    }
    groups.push({ id: nodeId, label, source: sourceText(sample), missing: null, fields: sampleFields(sample) });
  }
  return groups;
}

/** Listed once per sample: every template field of a node lists the same upstream samples, and a big one takes a pass over its keys. */
const listedSamples = new WeakMap<NodeSample, SampleField[]>();

function sampleFields(sample: NodeSample): SampleField[] {
  let fields = listedSamples.get(sample);
  if (!fields) {
    fields = [sampleField(`nodes.${sample.nodeId}.output`, "output", sample.content)];
    if (sample.data !== undefined) fields.push(sampleField(`nodes.${sample.nodeId}.data`, "data", sample.data));
    listedSamples.set(sample, fields);
  }
  return fields;
}

function emptyField(expression: string, label: string): SampleField {
  return { expression, label, type: "null", preview: "", children: [], leftOut: 0 };
}

/** "pinned", "from run #K8R1T6". */
export function sourceText(sample: NodeSample): string {
  return sample.source.kind === "pin" ? "pinned" : `from run ${shortRunId(sample.source.runId)}`;
}

/** Every field of every group, parents first: what `{{` completes. */
export function completionFields(groups: readonly ReferenceGroup[]): SampleField[] {
  return groups.flatMap((group) => flattenFields(group.fields));
}

/** Fields whose expression contains every word typed after `{{`, the nearer a match to the start the earlier. */
export function matchingFields(fields: readonly SampleField[], typed: string, limit: number = 50): SampleField[] {
  const words = typed.trim().toLowerCase().split(/\s+/).filter((word) => word !== "");
  const scored = fields.flatMap((field) => {
    const expression = field.expression.toLowerCase();
    if (!words.every((word) => expression.includes(word))) return [];
    // A typed start of the expression ranks first; otherwise the list keeps the tree's order.
    return [{ field, starts: words.length > 0 && expression.startsWith(words[0]!) ? 0 : 1 }];
  });
  return scored
    .sort((left, right) => left.starts - right.starts)
    .slice(0, limit)
    .map(({ field }) => field);
}

/** What a bound field would receive, from the samples; or why it cannot say. */
export type FieldPreview =
  | { status: "value"; type: ReturnType<typeof typeOf>; text: string }
  | { status: "unavailable"; message: string }
  | { status: "problem"; message: string };

const PREVIEW_TEXT_LENGTH = 300;

/**
 * The value `template` resolves to on the samples, as the engine would
 * resolve it in a run whose upstream nodes handed on those samples. Null for
 * a value with no template in it (a fixed value needs no preview).
 */
export function previewField(template: unknown, scope: SampleScope, titleOf: (nodeId: string) => string): FieldPreview | null {
  let references;
  try {
    references = findReferences(template);
  } catch (caught) {
    if (caught instanceof TemplateError) return { status: "problem", message: caught.message };
    throw caught;
  }
  if (references.length === 0) return null;
  const missingNodes = [...new Set(references.flatMap((reference) => (reference.kind === "node" && !scope.nodes.has(reference.nodeId) ? [reference.nodeId] : [])))];
  if (missingNodes.length > 0) {
    return { status: "unavailable", message: `Run or pin ${missingNodes.map((nodeId) => `“${titleOf(nodeId)}”`).join(" and ")} to preview.` };
  }
  const missingInputs = [...new Set(references.flatMap((reference) => (reference.kind === "input" && !Object.hasOwn(scope.inputs.values, reference.name) ? [reference.name] : [])))];
  if (missingInputs.length > 0) {
    return { status: "unavailable", message: `Start a run (or give ${missingInputs.map((name) => `“${name}”`).join(" and ")} a default) to preview.` };
  }
  const templateScope: TemplateScope = {
    inputs: scope.inputs.values,
    nodes: Object.fromEntries([...scope.nodes].map(([nodeId, sample]) => [nodeId, scopeEntryOf(sample)])),
  };
  let value: unknown;
  try {
    value = resolveTemplates(template, templateScope);
  } catch (caught) {
    if (caught instanceof TemplateError) return { status: "problem", message: caught.message };
    throw caught;
  }
  if (value === undefined) return { status: "unavailable", message: "The sample has nothing at this path: check the path, or run the step again." };
  const text = typeof value === "string" ? value : JSON.stringify(value) ?? previewOf(value);
  return { status: "value", type: typeOf(value), text: text.length > PREVIEW_TEXT_LENGTH ? `${text.slice(0, PREVIEW_TEXT_LENGTH - 1)}…` : text };
}
