import { z } from "zod";
import { failureHandling, nodeBase } from "../node-base";
import { defineBlockKind } from "../node-kind";

/** The handle the loop's body hangs from: the nodes it leads to run once per item. */
export const EACH_ITEM_HANDLE = "item";
/** The handle what comes after the loop hangs from: it runs once, with every item's result. */
export const DONE_HANDLE = "done";

/** The most items a For each step runs at once. */
export const MAX_CONCURRENCY = 32;

/**
 * Runs its loop body (the nodes connected from its "each item" handle) once
 * per item of a list from upstream data, at most `concurrency` items at a
 * time; each item is a run of its own (its steps, approvals and events), in
 * which `{{ item }}` and `{{ index }}` are that item and its place. Its
 * output is the list of the items' results in order (each the body's last
 * node's output). An item that fails stops the loop (the others are
 * cancelled) or, with `onItemFailure: "continue"`, leaves its error in its
 * place and the loop goes on.
 */
export const ForEachNodeSchema = z.object({
  ...nodeBase,
  ...failureHandling,
  kind: z.literal("foreach"),
  /** A template naming the list, e.g. `{{ nodes.fetch.data.items }}`; empty until one is chosen. */
  list: z.string().max(2000).default("").describe("The list to go through: a template such as {{ nodes.fetch.data.items }}."),
  concurrency: z.number().int().min(1).max(MAX_CONCURRENCY).default(4).describe(`How many items run at once (1 to ${MAX_CONCURRENCY}).`),
  onItemFailure: z.enum(["stop", "continue"]).default("stop").describe("When an item fails: stop the loop (the step fails), or keep its error in its place and go on."),
});
export type ForEachNode = z.infer<typeof ForEachNodeSchema>;

export const forEachKind = defineBlockKind(ForEachNodeSchema, {
  title: "For each",
  icon: "repeat",
  palette: { help: "Runs the nodes after “each item” once per item of a list." },
  resumesInPlace: true,
  neverRetried: true,
  waitingWords: "waiting for its items",
  card: {
    content: (node) => ({
      subtitle: node.list.trim() === "" ? "Choose a list" : `${node.concurrency} at a time`,
      outputs: [
        { id: EACH_ITEM_HANDLE, label: "each item" },
        { id: DONE_HANDLE, label: "done" },
      ],
    }),
    sameContent: (before, after) => before.list === after.list && before.concurrency === after.concurrency,
  },
});
