import type { WorkflowDefinitionInput } from "@/lib/workflow/definition";

/** Where the starter nodes sit: the editor's default zoom shows both with room between. */
export const STARTER_INPUT_POSITION = { x: 0, y: 0 } as const;
export const STARTER_OUTPUT_POSITION = { x: 600, y: 0 } as const;

/**
 * The definition a new workflow starts from: the run's inputs (no fields yet)
 * wired straight to the output, so it is runnable before anything is added
 * and the person builds between the two.
 *
 * @example
 *   await api("/api/workflows", { body: starterDefinition({ name: "Triage", description: "" }) });
 */
export function starterDefinition({ name, description = "" }: { name: string; description?: string }): WorkflowDefinitionInput {
  return {
    name: name.trim(),
    description: description.trim(),
    nodes: [
      { id: "input", kind: "input", fields: [], position: { ...STARTER_INPUT_POSITION } },
      { id: "output", kind: "output", value: "", position: { ...STARTER_OUTPUT_POSITION } },
    ],
    edges: [{ id: "input-output", source: "input", target: "output", sourceHandle: null }],
  };
}
