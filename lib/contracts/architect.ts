import { z } from "zod";
// The files themselves, not indexes that reach node:fs: the editor's panel sends these.
import { AgentProviderSchema } from "@/nodes/agent/definition";

/**
 * Drafting a workflow from a goal (POST /api/architect/drafts; lib/architect):
 * which model the person chose, and what they ask. The answer is a stream of
 * events (server-sent, named by `type`), lib/architect/architect.ts's
 * ArchitectEvent: `round`, `partial`, `checked`, then `done` or `failed`.
 */

/** The longest goal a person may give: longer is refused with this limit named. */
export const MAX_GOAL_CHARACTERS = 8_000;

/** The model the Architect asks, chosen as an Agent node's: a provider, a model id, a base URL, an API key as a stored secret. */
export const ArchitectModelSchema = z.strictObject({
  provider: AgentProviderSchema,
  model: z.string().trim().min(1, "name the model, e.g. gpt-4.1-mini or llama3.1").max(200),
  baseUrl: z.url({ protocol: /^https?$/, error: "expected an http(s) URL, e.g. http://127.0.0.1:11434/v1" }).max(2000).optional(),
  apiKey: z
    .string()
    .regex(/^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/, "a stored secret as ${NAME}, never the key itself")
    .optional(),
});
export type ArchitectModel = z.infer<typeof ArchitectModelSchema>;

export const DraftRequestSchema = z.strictObject({
  goal: z
    .string()
    .trim()
    .min(1, "say what the workflow should do")
    .max(MAX_GOAL_CHARACTERS, `at most ${MAX_GOAL_CHARACTERS.toLocaleString("en-US")} characters; say it shorter`),
  model: ArchitectModelSchema,
  /** The workflow being edited, when there is one: its secrets' limits and the workflows it may call are checked as its. */
  workflowId: z.string().min(1).max(64).optional(),
  /** The graph on the canvas to start from (unsaved changes included); absent: a new workflow. */
  current: z.unknown().optional(),
});
export type DraftRequest = z.infer<typeof DraftRequestSchema>;
