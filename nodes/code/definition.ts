import { z } from "zod";
import { failureHandling, nodeBase } from "../node-base";
import { defineBlockKind } from "../node-kind";

/** The longest code a node holds: a transform, not a program. */
export const MAX_CODE_LENGTH = 100_000;
/** The time limits a Code step may choose; the sandbox also bounds its memory, stack and output (lib/sandbox). */
export const CODE_TIME_LIMIT = { defaultMs: 1_000, minMs: 10, maxMs: 30_000 } as const;

/** What a new Code node holds: a body that runs as it is and says what it can read. */
export const STARTER_CODE = [
  "// inputs: the run's inputs · nodes.<id>.data: an upstream step's result",
  "// Return a JSON value: it becomes this step's result.",
  "return inputs;",
].join("\n");

/**
 * JavaScript that reshapes data: the body of a function that receives `inputs` (the run's inputs), `nodes` (each
 * finished upstream step's `output` text and `data`), and, in a For each loop's body or in the "once per item"
 * mode, `item` and `index`; what it returns (a JSON value) is the step's result. It runs in the sandbox
 * (lib/sandbox): QuickJS in a separate process with no environment, files, network or secrets; `${NAME}` in the
 * code is text.
 */
export const CodeNodeSchema = z.object({
  ...nodeBase,
  ...failureHandling,
  kind: z.literal("code"),
  code: z.string().max(MAX_CODE_LENGTH).default(STARTER_CODE).describe("The body of a function that returns a JSON value."),
  mode: z.enum(["once", "each"]).default("once").describe("Run once for everything, or once per item of a list."),
  /** In the "each" mode, a template naming the list, e.g. `{{ nodes.fetch.data.items }}`. */
  list: z.string().max(2000).default("").describe("The list to go through, once per item: a template such as {{ nodes.fetch.data.items }}."),
  onItemFailure: z.enum(["stop", "continue"]).default("stop").describe("When an item fails: the step fails, or the item's error takes its place and the rest go on."),
  timeLimitMs: z
    .number()
    .int()
    .min(CODE_TIME_LIMIT.minMs)
    .max(CODE_TIME_LIMIT.maxMs)
    .default(CODE_TIME_LIMIT.defaultMs)
    .describe(`How long the code may run, in milliseconds (${CODE_TIME_LIMIT.minMs} to ${CODE_TIME_LIMIT.maxMs}); in the "each" mode, for all items together.`),
});
export type CodeNode = z.infer<typeof CodeNodeSchema>;

export const codeKind = defineBlockKind(CodeNodeSchema, {
  title: "Code",
  icon: "braces",
  palette: { help: "Reshapes data with JavaScript, in a sandbox." },
  onlyComputes: true,
  card: {
    content: (node) => ({ subtitle: node.mode === "once" ? "JavaScript, once" : node.list.trim() === "" ? "Choose a list" : "JavaScript, once per item" }),
    sameContent: (before, after) => before.mode === after.mode && (before.list.trim() === "") === (after.list.trim() === ""),
  },
});
