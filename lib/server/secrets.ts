import type { ToolPool } from "@/lib/tools";

/**
 * What the secret's tool says of the value (its `checkSecret` for each secret
 * input, first problem wins), or "" when usable or tied to no tool.
 */
export function secretProblem(pool: ToolPool, toolName: string | null | undefined, value: string): string {
  if (!toolName) return "";
  const tool = pool.get(toolName);
  if (!tool || tool.name !== toolName) return `the tool "${toolName}" is not installed, so the value cannot be checked`;
  for (const input of tool.secretInputs) {
    const problem = tool.checkSecret(input, value);
    if (problem) return problem;
  }
  return "";
}
