import { parseSecretReference, type ToolPool } from "@/lib/tools";
import type { WorkflowDefinition } from "./definition";

/** A secret written into a definition as its value instead of as a `${NAME}` reference. */
export interface LiteralSecret {
  nodeId: string;
  /** The dotted path in the definition, e.g. `nodes[2].arguments.dsn`. */
  path: string;
}

/**
 * Every secret input (a tool's declared secret inputs, an agent's API key)
 * holding a value rather than a reference. Such a value would be stored as
 * typed in the workflow and every version of it, outside the encrypted
 * secret store; saving refuses it.
 */
export function literalSecretsIn(definition: WorkflowDefinition, pool: ToolPool): LiteralSecret[] {
  const found: LiteralSecret[] = [];
  const isLiteral = (value: unknown) => typeof value === "string" && value.trim() !== "" && parseSecretReference(value) === null;
  definition.nodes.forEach((node, index) => {
    if (node.kind === "agent" && isLiteral(node.apiKey)) found.push({ nodeId: node.id, path: `nodes[${index}].apiKey` });
    if (node.kind !== "tool") return;
    const tool = pool.get(node.tool);
    for (const input of tool?.secretInputs ?? []) {
      if (isLiteral(node.arguments[input])) found.push({ nodeId: node.id, path: `nodes[${index}].arguments.${input}` });
    }
  });
  return found;
}
