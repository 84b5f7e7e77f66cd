import { parseSecretReference, SECRET_MASK, type Tool } from "@/lib/tools";

/** Bound arguments as recorded and shown: literal secret values replaced; `${NAME}` references kept. */
export function maskSecretInputs(tool: Tool, args: Record<string, unknown>): Record<string, unknown> {
  const masked = { ...args };
  for (const input of tool.secretInputs) {
    const value = masked[input];
    if (typeof value === "string" && !parseSecretReference(value)) masked[input] = SECRET_MASK;
  }
  return masked;
}
