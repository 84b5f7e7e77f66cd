import { z } from "zod";
import { NodeIdSchema } from "@/lib/workflow/definition";

/**
 * Sample data for mapping fields in the editor: each node's output as the
 * "From…" picker, the `{{` completions and the field previews read it. A
 * node's sample is its pin when it has one (what a test run would use), else
 * its output in the newest run where it succeeded. Values are as stored
 * (secrets masked by the tools that saw them) and masked again against the
 * studio's stored secrets on the way out, so a secret's value never appears.
 */

/** Where a sample came from: the node's pin, or its output in a run. */
export const SampleSourceSchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("pin"),
    /** The run whose output was pinned; null for JSON a person typed. */
    fromRunId: z.string().nullable(),
    pinnedAt: z.string(),
  }),
  z.object({ kind: z.literal("run"), runId: z.string(), finishedAt: z.string().nullable() }),
]);
export type SampleSource = z.infer<typeof SampleSourceSchema>;

/** One node's sample: what `{{ nodes.<id>.output }}` and `{{ nodes.<id>.data… }}` would read. */
export const NodeSampleSchema = z.object({
  nodeId: z.string(),
  source: SampleSourceSchema,
  content: z.string(),
  data: z.unknown().optional(),
});
export type NodeSample = z.infer<typeof NodeSampleSchema>;

/** GET /api/workflows/{id}/samples */
export const WorkflowSamplesSchema = z.object({
  nodes: z.array(NodeSampleSchema),
  /** The newest run's inputs, what `{{ inputs.<name> }}` would read; null when the workflow never ran. */
  inputs: z.object({ runId: z.string(), values: z.record(z.string(), z.unknown()) }).nullable(),
});
export type WorkflowSamples = z.infer<typeof WorkflowSamplesSchema>;

const MAX_NODE_IDS = 200;

/** `?nodeIds=a,b`: only these nodes' samples; default every node of the workflow's newest version. */
export const SampleQuerySchema = z.object({
  nodeIds: z
    .string()
    .optional()
    .transform((text) => (text === undefined ? undefined : text.split(",").map((id) => id.trim()).filter((id) => id !== "")))
    .pipe(z.array(NodeIdSchema).max(MAX_NODE_IDS, `at most ${MAX_NODE_IDS} node ids`).optional())
    .describe("Comma-separated node ids"),
});
export type SampleQuery = z.infer<typeof SampleQuerySchema>;
