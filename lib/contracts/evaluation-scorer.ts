import { z } from "zod";
import { splitPath } from "@/lib/workflow/templates";
// The files themselves, not indexes that reach node:fs: the evaluation form builds scorers with these.
import { CODE_TIME_LIMIT, MAX_CODE_LENGTH } from "@/nodes/code/definition";
import { ArchitectModelSchema } from "./architect";

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

/** The scorers that compare by rule, without a model or code: lib/evaluations/scorers.ts scores them, at once and alike every time. */
export const RuleScorerSchema = z.discriminatedUnion("kind", [
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
export type RuleScorer = z.infer<typeof RuleScorerSchema>;

/** A model chosen as an Agent node's (or the Architect's): a provider, a model id, a base URL, an API key as a stored secret. */
export const JudgeModelSchema = ArchitectModelSchema;
export type JudgeModel = z.infer<typeof JudgeModelSchema>;

/**
 * An LLM judge: a model reads the row's inputs, the output and the expected output, and scores the output from 0 to
 * 1 by the rubric, with its reasoning (kept as the verdict's reason). It passes at `threshold` or above.
 */
export const JudgeScorerSchema = z.object({
  kind: z.literal("llm-judge"),
  name,
  model: JudgeModelSchema,
  rubric: z.string().trim().min(1, "write what the judge scores by").max(20_000, "a rubric is at most 20,000 characters").describe("What a good output does, in words the judge scores by"),
  threshold: z.number().min(0, "from 0").max(1, "to 1").default(0.5).describe("The score from which the output passes, 0 to 1"),
});
export type JudgeScorer = z.infer<typeof JudgeScorerSchema>;

/**
 * A custom scorer: JavaScript run as a Code node's is (lib/sandbox: QuickJS in a worker, no files, network or
 * secrets, the same limits), given `output`, `expected` and `inputs`. It returns a score from 0 to 1, true or false,
 * or `{ score, passed?, reason? }`.
 */
export const CodeScorerSchema = z.object({
  kind: z.literal("code"),
  name,
  code: z.string().trim().min(1, "write the code that scores").max(MAX_CODE_LENGTH).describe("The body of a function of output, expected and inputs that returns a score"),
  timeLimitMs: z.number().int().min(CODE_TIME_LIMIT.minMs).max(CODE_TIME_LIMIT.maxMs).default(CODE_TIME_LIMIT.defaultMs),
});
export type CodeScorer = z.infer<typeof CodeScorerSchema>;

export const ScorerSchema = z.discriminatedUnion("kind", [...RuleScorerSchema.options, JudgeScorerSchema, CodeScorerSchema]);
export type Scorer = z.infer<typeof ScorerSchema>;
export type ScorerKind = Scorer["kind"];

/** What a scorer says of one row: a score from 0 to 1 (null: it could not score this row, `reason` says why), and why. */
export const VerdictSchema = z.object({
  score: z.number().min(0).max(1).nullable(),
  passed: z.boolean().nullable(),
  reason: z.string(),
  /** What an LLM judge's model calls took to reach it (retries included), as its provider counted them; other scorers call no model. */
  usage: z.object({ inputTokens: z.number().int().nonnegative(), outputTokens: z.number().int().nonnegative() }).optional(),
});
export type Verdict = z.infer<typeof VerdictSchema>;
