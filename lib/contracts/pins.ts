import { z } from "zod";
import { SECRET_MASK } from "@/lib/tools/contracts";
import { secretLookingValues } from "@/lib/workflow/secret-looking";

/**
 * A node's pinned output: what a test run from the editor (Run this step, Run
 * up to here) uses instead of running the node. The same shape as a step's
 * output, without images (test data is typed or copied JSON): `content` is what
 * `{{ nodes.<id>.output }}` reads, `data` what `{{ nodes.<id>.data… }}` reads,
 * `route` a router's chosen route. A value that looks like a credential is
 * refused on its field, since a pin is stored as typed, outside the encrypted
 * secret store (the server also refuses the values of stored secrets).
 */
export const PinnedOutputSchema = z
  .strictObject({
    content: z.string().max(1_000_000).describe("The text result, as {{ nodes.<id>.output }} reads it"),
    data: z.unknown().optional().describe("The structured result, as {{ nodes.<id>.data.… }} reads it"),
    route: z.string().min(1).max(200).optional().describe("For a router: the route it took"),
  })
  .superRefine((output, context) => {
    for (const found of secretLookingValues(output)) {
      context.addIssue({ code: "custom", path: found.path, message: `${found.reason}: a pin is stored as typed; use a stored secret (Settings → Secrets) and pin "${SECRET_MASK}" in its place` });
    }
  });
export type PinnedOutput = z.infer<typeof PinnedOutputSchema>;

/** A pin as the API answers it. */
export const PinRecordSchema = z.object({
  nodeId: z.string(),
  output: PinnedOutputSchema,
  /** The run whose step output was pinned; null for JSON a person typed. */
  fromRunId: z.string().nullable(),
  pinnedAt: z.string(),
});
export type PinRecord = z.infer<typeof PinRecordSchema>;

/** PUT /api/workflows/{id}/pins/{nodeId}: pin JSON (`output`), or the node's output in a run (`fromRunId`); one of the two. */
export const PinBodySchema = z
  .strictObject({
    output: PinnedOutputSchema.optional().describe("The output to pin, as typed"),
    fromRunId: z.string().min(1).max(200).optional().describe("The run whose output of this node to pin"),
  })
  .superRefine((body, context) => {
    if ((body.output === undefined) === (body.fromRunId === undefined)) {
      context.addIssue({ code: "custom", path: ["output"], message: "give either output (the JSON to pin) or fromRunId (a run whose output of this step to pin)" });
    }
  });
export type PinBody = z.infer<typeof PinBodySchema>;

/** POST /api/workflows/{id}/pins: Copy to editor, every succeeded step of a run (or those named) pinned at once. */
export const PinsFromRunBodySchema = z.strictObject({
  fromRunId: z.string().min(1).max(200),
  nodeIds: z.array(z.string().min(1).max(200)).max(1000).optional().describe("Only these nodes' outputs; default every step that succeeded"),
});
export type PinsFromRunBody = z.infer<typeof PinsFromRunBodySchema>;
