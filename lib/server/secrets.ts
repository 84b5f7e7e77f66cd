import type { StudioDatabase } from "@/lib/persistence";
import type { ToolPool } from "@/lib/tools";
import { HttpError } from "./http-error";

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

/** 422 naming `workflows.<index>` for each id that names no workflow, before anything is stored. */
export async function refuseUnknownWorkflows(workflows: readonly string[] | null | undefined, database: StudioDatabase): Promise<void> {
  if (!workflows) return;
  const found = new Set((await database.workflow.findMany({ where: { id: { in: [...workflows] } }, select: { id: true } })).map((row) => row.id));
  const issues = workflows.flatMap((id, index) => (found.has(id) ? [] : [{ path: `workflows.${index}`, message: `no workflow has the id “${id.slice(0, 60)}”`, code: "custom" }]));
  if (issues.length > 0) throw new HttpError(422, `The secret's workflows are not valid: ${issues.map((issue) => `${issue.path}: ${issue.message}`).join("; ")}`, { issues });
}
