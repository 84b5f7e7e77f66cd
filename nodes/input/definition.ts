import { z } from "zod";
import { FIELD_NAME, nodeBase } from "../node-base";
import { defineBlockKind } from "../node-kind";

/** One field of the run's inputs, asked for in a form when a run starts. */
export const InputFieldSchema = z.object({
  name: z.string().regex(FIELD_NAME, "an input name is a letter or _ followed by letters, digits or _"),
  label: z.string().max(200).optional(),
  type: z.enum(["string", "text", "number", "boolean"]).default("string"),
  required: z.boolean().default(true),
  default: z.union([z.string(), z.number(), z.boolean()]).optional(),
  description: z.string().max(1000).optional(),
});
export type InputField = z.infer<typeof InputFieldSchema>;

export const InputNodeSchema = z.object({
  ...nodeBase,
  kind: z.literal("input"),
  fields: z.array(InputFieldSchema).max(100).default([]),
});
export type InputNode = z.infer<typeof InputNodeSchema>;

/** Where a run starts: the fields its form asks for. */
export const inputKind = defineBlockKind(InputNodeSchema, {
  title: "Run inputs",
  icon: "log-in",
  palette: { help: "What a run asks for.", takenHelp: "Already in this workflow (one at most)." },
  onePerWorkflow: true,
  startsRuns: "manually",
  onlyComputes: true,
  card: {
    content: (node) => ({
      subtitle: node.fields.length === 0 ? "No fields yet" : `${node.fields.length} field${node.fields.length === 1 ? "" : "s"}`,
      // Run inputs start the workflow: nothing flows into them.
      hasInput: false,
    }),
    sameContent: (before, after) => before.fields.length === after.fields.length,
  },
});
