import { z } from "zod";
import { nodeBase } from "../node-base";
import { newNodeWithDefaults, type NodeKindDefinition } from "../node-kind";

/** The run's result: a template over inputs and upstream outputs. */
export const OutputNodeSchema = z.object({
  ...nodeBase,
  kind: z.literal("output"),
  value: z.string().max(20_000).default(""),
});
export type OutputNode = z.infer<typeof OutputNodeSchema>;

export const outputKind = {
  kind: "output",
  onlyComputes: true,
  schema: OutputNodeSchema,
  title: "Output",
  icon: "flag",
  palette: { help: "The run's result." },
  onePerWorkflow: false,
  createNode: newNodeWithDefaults(OutputNodeSchema, "output"),
  card: {
    // An output ends the workflow: nothing flows out of it.
    content: () => ({ subtitle: "The run's result", hasOutput: false }),
    sameContent: () => true,
  },
} satisfies NodeKindDefinition<OutputNode>;
