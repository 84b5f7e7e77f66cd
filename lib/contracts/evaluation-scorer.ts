import { z } from "zod";
import { splitPath } from "@/lib/workflow/templates";

/**
 * How an evaluation scores a run's output against its dataset row's expected
 * output: the scorers a person picks, each with its settings, and the verdict
 * each gives a row. One table for the form, the API and the scoring.
 */

/** A path into the output (`data.total`, `items[0].name`); empty: the whole output. */
const PathSchema = z
  .string()
  .trim()
  .max(500)
  .default("")
  .superRefine((path, context) => {
    if (path === "") return;
    const split = splitPath(path);
    if ("badPart" in split) context.addIssue({ code: "custom", message: `"${split.badPart}" is not a name: write a dotted path such as data.total or items[0].name` });
  })
  .describe("Where in the output (and the expected output) to look: a dotted path such as data.total; empty for the whole");

const name = z.string().trim().min(1, "give the scorer a name").max(80);

export const ScorerSchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("exact"),
    name,
    /** Compare letters' case too. */
    caseSensitive: z.boolean().default(true),
    /** Ignore spaces and line ends around the text. */
    trim: z.boolean().default(true),
  }),
  z.object({
    kind: z.literal("contains"),
    name,
    /** The text to look for; empty: the row's expected output. */
    text: z.string().max(10_000).default(""),
    caseSensitive: z.boolean().default(false),
  }),
  z.object({ kind: z.literal("json-equal"), name, path: PathSchema }),
  z.object({
    kind: z.literal("number"),
    name,
    path: PathSchema,
    /** How far from the expected number still passes (absolute). */
    tolerance: z.number().finite().nonnegative().default(0),
  }),
  z.object({
    kind: z.literal("regex"),
    name,
    pattern: z
      .string()
      .min(1, "write a pattern")
      .max(2_000)
      .superRefine((pattern, context) => {
        try {
          new RegExp(pattern, "u");
        } catch (error) {
          context.addIssue({ code: "custom", message: `is not a regular expression: ${(error as Error).message}` });
        }
      }),
    caseSensitive: z.boolean().default(true),
  }),
  z.object({
    kind: z.literal("json-schema"),
    name,
    schema: z.record(z.string(), z.unknown()).superRefine((schema, context) => {
      try {
        z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
      } catch (error) {
        context.addIssue({ code: "custom", message: `is not a JSON Schema the studio can check with: ${(error as Error).message}` });
      }
    }),
  }),
]);
export type Scorer = z.infer<typeof ScorerSchema>;
export type ScorerKind = Scorer["kind"];

/** What a scorer says of one row: a score from 0 to 1 (null: it could not score this row, `reason` says why), and why. */
export const VerdictSchema = z.object({
  score: z.number().min(0).max(1).nullable(),
  passed: z.boolean().nullable(),
  reason: z.string(),
});
export type Verdict = z.infer<typeof VerdictSchema>;
