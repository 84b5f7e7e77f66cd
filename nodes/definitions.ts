import { z } from "zod";
import type { NodeExecution } from "@/lib/contracts/execution-settings";
import { agentKind } from "./agent/definition";
import { codeKind } from "./code/definition";
import { forEachKind } from "./foreach/definition";
import { inputKind } from "./input/definition";
import type { NodeKindDefinition, PaletteBlock } from "./node-kind";
import { outputKind } from "./output/definition";
import { routerKind } from "./router/definition";
import { scheduleKind } from "./schedule/definition";
import { subWorkflowKind } from "./subworkflow/definition";
import { toolKind } from "./tool/definition";
import { webhookKind } from "./webhook/definition";

/**
 * Every node kind, one line each: the table the workflow schema, the palette,
 * the canvas cards and new nodes are built from. Browser-safe (no Node-only
 * imports, no React). A kind's server side is registered in nodes/server.ts,
 * its inspector in nodes/editor.ts; nodes/node-kinds.test.ts checks the three
 * name the same kinds.
 *
 * The order is the palette's order of building blocks.
 */
export const nodeKindDefinitions = defineNodeKinds({
  input: inputKind,
  tool: toolKind,
  router: routerKind,
  agent: agentKind,
  subworkflow: subWorkflowKind,
  foreach: forEachKind,
  code: codeKind,
  output: outputKind,
  webhook: webhookKind,
  schedule: scheduleKind,
});

/** Every kind's name, in table order. */
export const NODE_KINDS = Object.keys(nodeKindDefinitions) as (keyof typeof nodeKindDefinitions)[];

/** A node, of whichever kind; parsed by `kind`. */
export const WorkflowNodeSchema = z.discriminatedUnion("kind", nodeSchemas());
export type WorkflowNode = z.infer<typeof WorkflowNodeSchema>;
export type NodeKind = WorkflowNode["kind"];
/** The node type of one kind: `NodeOfKind<"router">` is `RouterNode`. */
export type NodeOfKind<Kind extends NodeKind> = Extract<WorkflowNode, { kind: Kind }>;

/** What a palette item carries onto the canvas: each kind's item (a building block's kind; a tool's name). */
export type PaletteItem = {
  [Kind in NodeKind]: Parameters<(typeof nodeKindDefinitions)[Kind]["createNode"]>[0];
}[NodeKind];

/** The definition of `node`'s kind, typed for that node. */
export function definitionOf<Node extends WorkflowNode>(node: Node): NodeKindDefinition<Node> {
  return entryOfKind<NodeKindDefinition<Node>>(nodeKindDefinitions, node);
}

/**
 * `node`'s entry in a table of one entry per kind (this one, nodes/server.ts, nodes/editor.ts), as `Entry`: the
 * caller names the entry's type for that node. A lookup by a union key loses which member it was; the table's type
 * guarantees the pairing.
 */
export function entryOfKind<Entry>(table: { readonly [Kind in NodeKind]: unknown }, node: WorkflowNode): Entry {
  return table[node.kind] as Entry;
}

/** A building block of the palette: a kind with a palette entry, and the item a drop of it carries. */
export interface PaletteBlockEntry {
  kind: NodeKind;
  item: PaletteItem;
  title: string;
  icon: string;
  block: PaletteBlock;
}

/** The kinds runs start at, and how (see NodeKindDefinition.startsRuns). */
export function startsRunsOf(kind: NodeKind): "manually" | "on-trigger" | null {
  const definition = nodeKindDefinitions[kind] as { startsRuns?: "manually" | "on-trigger" };
  return definition.startsRuns ?? null;
}

/** Whether nodes of `kind` take execution settings (retries, a time limit, on error; see NodeKindDefinition.handlesFailures). */
export function handlesFailures(kind: NodeKind): boolean {
  return (nodeKindDefinitions[kind] as { handlesFailures?: true }).handlesFailures === true;
}

/** Whether a step of `kind` is never retried as a whole (see NodeKindDefinition.neverRetried). */
export function neverRetried(kind: NodeKind): boolean {
  return (nodeKindDefinitions[kind] as { neverRetried?: true }).neverRetried === true;
}

/** Whether a step of `kind` only computes from what the run holds (see NodeKindDefinition.onlyComputes). */
export function onlyComputes(kind: NodeKind): boolean {
  return (nodeKindDefinitions[kind] as { onlyComputes?: true }).onlyComputes === true;
}

/** Whether a step of `kind` picks up its own attempt when its run is driven again (see NodeKindDefinition.resumesInPlace). */
export function resumesInPlace(kind: NodeKind): boolean {
  return (nodeKindDefinitions[kind] as { resumesInPlace?: true }).resumesInPlace === true;
}

/**
 * What a waiting step of `kind` says (see NodeKindDefinition.waitingWords): "waiting for you" unless it waits for
 * something other than a person, or the reader is not among those who may decide (`forYou: false`), for whom it waits "for approval".
 */
export function waitingWordsOf(kind: NodeKind, options: { forYou?: boolean } = {}): string {
  return (nodeKindDefinitions[kind] as { waitingWords?: string }).waitingWords ?? (options.forYou === false ? "waiting for approval" : "waiting for you");
}

/** What people call a kind ("Run inputs", "For each"): its definition's title, the one place it is written. */
export function titleOfKind(kind: NodeKind): string {
  return nodeKindDefinitions[kind].title;
}

/** The node's execution settings, when its kind takes them. */
export function executionOf(node: WorkflowNode): NodeExecution | undefined {
  return "execution" in node ? node.execution : undefined;
}

/** The palette's "Building blocks", in table order. */
export function paletteBlocks(): PaletteBlockEntry[] {
  return Object.values(nodeKindDefinitions).flatMap((definition) =>
    // A building block's item is its kind alone (only tools, which have no block, carry more).
    definition.palette ? [{ kind: definition.kind, item: { kind: definition.kind } as PaletteItem, title: definition.title, icon: definition.icon, block: definition.palette }] : [],
  );
}

/** The kinds a workflow holds at most one of that `nodes` already hold (a second run-inputs node is refused). */
export function kindsAtLimit(nodes: readonly { kind: NodeKind }[]): NodeKind[] {
  return Object.values(nodeKindDefinitions)
    .filter((definition) => definition.onePerWorkflow && nodes.some((node) => node.kind === definition.kind))
    .map((definition) => definition.kind);
}

/**
 * Checks, at compile time, that each entry sits under its own kind's name
 * (each kind's module checks its entry against NodeKindDefinition).
 */
function defineNodeKinds<Table extends { [Kind in keyof Table]: { kind: Kind } }>(table: Table): Table {
  return table;
}

function nodeSchemas() {
  type Schema = (typeof nodeKindDefinitions)[keyof typeof nodeKindDefinitions]["schema"];
  // discriminatedUnion wants a non-empty tuple; the table is never empty.
  return Object.values(nodeKindDefinitions).map((definition) => definition.schema) as [Schema, ...Schema[]];
}
