import type { SampleField } from "./sample-paths";

/**
 * What a Code node's editor offers as completions: the names its code receives and, from the samples the field
 * picker shows, the upstream fields, written as JavaScript (`nodes["fetch-orders"].data.rows[0]`) since a node id
 * may hold a "-".
 */
export interface CodeCompletion {
  /** The text inserted. */
  label: string;
  /** What it is: "the run's inputs", or a field's type and preview, `[120 items]`. */
  detail: string;
  type: "variable" | "property";
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A template expression (`nodes.fetch-orders.data.rows[0]`) as a JavaScript path to the same value. */
export function javascriptPathOf(expression: string): string {
  return expression
    .split(".")
    .map((part, index) => {
      const bracket = part.indexOf("[");
      const name = bracket === -1 ? part : part.slice(0, bracket);
      const indexes = bracket === -1 ? "" : part.slice(bracket);
      if (index === 0 || IDENTIFIER.test(name)) return `${index === 0 ? "" : "."}${name}${indexes}`;
      return `[${JSON.stringify(name)}]${indexes}`;
    })
    .join("");
}

/** The completions for code that receives `inputs` and `nodes` (and `item`, `index` when `inLoop`), with the sampled fields. */
export function codeCompletions(fields: readonly SampleField[], inLoop: boolean): CodeCompletion[] {
  const names: CodeCompletion[] = [
    { label: "inputs", detail: "the run's inputs", type: "variable" },
    { label: "nodes", detail: "the upstream steps' results: nodes.<id>.data, nodes.<id>.output", type: "variable" },
    ...(inLoop
      ? [
          { label: "item", detail: "the item this run is for", type: "variable" as const },
          { label: "index", detail: "the item's place in the list, from 0", type: "variable" as const },
        ]
      : []),
  ];
  const seen = new Set(names.map((name) => name.label));
  const paths = fields.flatMap((field) => {
    const label = javascriptPathOf(field.expression);
    if (seen.has(label)) return [];
    seen.add(label);
    return [{ label, detail: `${field.type} ${field.preview}`.trim(), type: "property" as const }];
  });
  return [...names, ...paths];
}
