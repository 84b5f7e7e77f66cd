import type { SecretResolver, ToolPool } from "@/lib/tools";
import { validateWorkflow, type ValidationOptions, type ValidationResult } from "@/lib/workflow/validate";

/**
 * Validation of a version about to run, remembered when nothing outside the
 * version and the tool pool could change the answer: a valid version that
 * refers to no stored secret, checked against the same pool (the pool is
 * replaced whenever MCP tools come or go). A version never changes once
 * saved, so such a workflow is validated once, not on every run; one that
 * uses secrets (or names an error workflow, or calls one) is checked every time, since a secret (a workflow) can be removed.
 * Validation looks at the world in one place only, a step folder that does
 * not exist yet, and that is a warning: it never changes whether a run may
 * start, which is all that is remembered here.
 */

const MAX_REMEMBERED = 500;
const remembered = new Map<string, { pool: ToolPool; result: ValidationResult }>();

export async function validateForRun(
  versionId: string,
  definition: unknown,
  options: { pool: ToolPool; secrets: SecretResolver; workflows?: ValidationOptions["workflows"] },
): Promise<ValidationResult> {
  const known = remembered.get(versionId);
  if (known && known.pool === options.pool) return known.result;
  const result = await validateWorkflow(definition, options);
  // An error workflow can be deleted, as a secret can, and a called workflow changed: such a version is checked each time too.
  const namesErrorWorkflow = typeof (definition as { errorWorkflowId?: unknown } | null)?.errorWorkflowId === "string";
  const callsWorkflows = result.definition?.nodes.some((node) => node.kind === "subworkflow") ?? false;
  if (result.valid && !namesErrorWorkflow && !callsWorkflows && !result.requirements.some((requirement) => requirement.kind === "secret")) {
    if (remembered.size >= MAX_REMEMBERED) remembered.delete(remembered.keys().next().value!);
    remembered.set(versionId, { pool: options.pool, result });
  }
  return result;
}
