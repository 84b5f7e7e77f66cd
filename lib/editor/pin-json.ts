import { PinnedOutputSchema, type PinnedOutput } from "@/lib/contracts/pins";
import type { StepOutput } from "@/lib/contracts/run";
import { fieldPath } from "@/lib/tools/validation";

/**
 * Pinned outputs as a person types them: JSON text in the inspector, checked
 * with the same contract the server parses the pin with, each problem named
 * by its field (`data.rows[0].token: …`).
 */

/** The output, or the first problem with it in words. */
export function parsePinJson(text: string): { output: PinnedOutput } | { error: string } {
  if (text.trim() === "") return { error: 'Type the output as JSON, e.g. { "content": "the text", "data": { "name": "Ada" } }.' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (failure) {
    return { error: `Not valid JSON: ${failure instanceof Error ? failure.message : "it does not parse"}.` };
  }
  const parsed = PinnedOutputSchema.safeParse(value);
  if (parsed.success) return { output: parsed.data };
  const issue = parsed.error.issues[0]!;
  const where = issue.path.length > 0 ? fieldPath(issue.path) : "the pin";
  return { error: `${where}: ${issue.message.replace(/^Invalid input: /, "")}` };
}

/** A step output as the JSON the pin editor starts from: its text, data and route (images are not test data). */
export function pinJsonOf(output: Pick<StepOutput, "content" | "data" | "route">): string {
  const pinned = { content: output.content, ...(output.data !== undefined ? { data: output.data } : {}), ...(output.route ? { route: output.route } : {}) };
  return JSON.stringify(pinned, null, 2);
}
