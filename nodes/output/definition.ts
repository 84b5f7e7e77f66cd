import { z } from "zod";
import { nodeBase } from "../node-base";
import { defineBlockKind } from "../node-kind";

/** The run's result: a template over inputs and upstream outputs. */
export const OutputNodeSchema = z.object({
  ...nodeBase,
  kind: z.literal("output"),
  value: z.string().max(20_000).default(""),
});
export type OutputNode = z.infer<typeof OutputNodeSchema>;

export const outputKind = defineBlockKind(OutputNodeSchema, {
  title: "Output",
  icon: "flag",
  palette: { help: "The run's result." },
  onlyComputes: true,
  card: {
    // An output ends the workflow: nothing flows out of it.
    content: () => ({ subtitle: "The run's result", hasOutput: false }),
    sameContent: () => true,
  },
});
