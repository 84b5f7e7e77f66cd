import { validateWorkflow, type ValidationResult } from "@/lib/workflow/validate";
import { startStudio } from "./studio";

/** Validates a definition against the process's tools and stored secrets. */
export async function validateWithStudio(definition: unknown): Promise<ValidationResult> {
  const studio = await startStudio();
  return validateWorkflow(definition, { pool: studio.pool(), secrets: studio.secrets });
}
