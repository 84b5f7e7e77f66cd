import { z } from "zod";
import { failureHandling, FIELD_NAME, nodeBase } from "../node-base";
import { defineBlockKind } from "../node-kind";

/** "Call its published version": the version a Sub-workflow step calls unless one is pinned. */
export const PUBLISHED_VERSION = "published";

/** A pinned version number, or the workflow's published version when the run starts. */
export const CalledVersionSchema = z.union([z.literal(PUBLISHED_VERSION), z.number().int().positive()]);

/**
 * Calls another saved workflow and waits for its run: `inputs` fills the
 * called workflow's Run inputs, each a template over this run's inputs and
 * upstream steps (`{{ nodes.fetch.data.id }}`; one reference keeps its type).
 * The node's output is the called run's output (its output node's value).
 */
export const SubWorkflowNodeSchema = z.object({
  ...nodeBase,
  ...failureHandling,
  kind: z.literal("subworkflow"),
  /** The workflow to call; empty until one is chosen (validation says so). */
  workflowId: z.string().max(100).default(""),
  version: CalledVersionSchema.default(PUBLISHED_VERSION),
  inputs: z.record(z.string().regex(FIELD_NAME, "an input name is a letter or _ followed by letters, digits or _"), z.string().max(20_000)).default({}),
});
export type SubWorkflowNode = z.infer<typeof SubWorkflowNodeSchema>;

export const subWorkflowKind = defineBlockKind(SubWorkflowNodeSchema, {
  title: "Sub-workflow",
  icon: "workflow",
  palette: { help: "Calls another saved workflow and uses its result." },
  resumesInPlace: true,
  waitingWords: "waiting for the run it called",
  card: {
    content: (node) => ({
      subtitle: node.workflowId === "" ? "Choose a workflow" : node.version === PUBLISHED_VERSION ? "Its published version" : `Version ${node.version}`,
    }),
    sameContent: (before, after) => before.workflowId === after.workflowId && before.version === after.version,
  },
});
