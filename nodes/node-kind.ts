import type { z } from "zod";
import type { CatalogTool } from "@/lib/contracts/catalog";

// What every node kind declares about itself that the browser and the server
// may both read: React-free and free of Node-only imports, so the editor's
// client bundle can hold it. Server behaviour is in node-kind-server.ts, the
// inspector in node-kind-editor.ts.

/** Any node: the fields of `nodeBase` plus its kind. */
export interface NodeShape {
  kind: string;
  id: string;
  label?: string | undefined;
  position: { x: number; y: number };
}

/** Where a new node goes and how it gets its id; given to a kind's `createNode`. */
export interface NewNodePlace {
  /** A free id made from `base`, e.g. `router` → `router_2`. */
  idFor: (base: string) => string;
  /** Rounded canvas coordinates. */
  position: { x: number; y: number };
  /** The installed tools, by name: a tool node is made from one. */
  tools: ReadonlyMap<string, CatalogTool>;
}

/** The kind's entry in the palette's "Building blocks" group. */
export interface PaletteBlock {
  /** The line under the title. */
  help: string;
  /** The line shown instead when the block is greyed out (a kind the workflow holds at most one of, already present). */
  takenHelp?: string;
  /** The palette group it is listed in: the building blocks (default) or the triggers. */
  group?: "blocks" | "triggers";
}

/** What a canvas card shows for the kind, besides the frame every card has (kind name, icon, problems, status). */
export interface NodeCardContent {
  /** Defaults to the node's label, else the kind's title. */
  title?: string;
  /** The operation's title, or a short line about the node. */
  subtitle?: string;
  /** Defaults to the kind's icon. */
  icon?: string | null;
  domain?: string;
  /** Named outputs (a router's routes plus "default"); one unnamed output when absent. */
  outputs?: readonly { id: string; label: string }[];
  /** False for kinds nothing may flow into (run inputs). */
  hasInput?: boolean;
  /** False for kinds nothing flows out of (the output). */
  hasOutput?: boolean;
}

export interface NodeCard<Node extends NodeShape> {
  content: (node: Node, tool: CatalogTool | undefined) => NodeCardContent;
  /**
   * Whether two versions of a node (same kind and label) draw the same card,
   * so the canvas can keep the card's data object and skip a re-render.
   */
  sameContent: (before: Node, after: Node) => boolean;
}

/**
 * One node kind, as the browser and the server both know it. `Item` is what
 * the palette hands over when it is dropped: the kind alone for a building
 * block, a tool's name (and operation) for a tool.
 */
export interface NodeKindDefinition<Node extends NodeShape, Item extends { kind: Node["kind"] } = { kind: Node["kind"] }> {
  kind: Node["kind"];
  /** The node's zod schema; `lib/workflow/definition.ts` unites the kinds' schemas on `kind`. */
  schema: z.ZodType<Node>;
  /** What people call the kind: the card's kind line, the inspector's title, the palette entry. */
  title: string;
  /** The kind's icon (components/tool-icon.tsx names). */
  icon: string;
  /** Its palette block; null for kinds the palette lists otherwise (tools, from the catalog). */
  palette: PaletteBlock | null;
  /**
   * A workflow holds at most one node of this kind: the palette greys its block
   * out once one is present, and a drop makes nothing. (Validation's own rule for
   * run inputs is in checkStructure, lib/workflow/validate.ts.)
   */
  onePerWorkflow: boolean;
  /**
   * Whether runs start at nodes of this kind: `manually` (the run inputs: the
   * Run button, the CLI, MCP) or `on-trigger` (a webhook, a schedule). A run
   * starts at one of them and the others are skipped, with whatever only they
   * lead to. Absent: runs never start here.
   */
  startsRuns?: "manually" | "on-trigger";
  /**
   * Its nodes take execution settings (retries, a time limit, what happens on
   * error: `failureHandling` in node-base.ts): the inspector shows its "On
   * failure" section, and its card an error handle when it follows an error path.
   * (A building block's is set from its schema by defineBlockKind.)
   */
  handlesFailures?: true;
  /**
   * A step of this kind found running or waiting when its run is picked up
   * again (a restart, another worker) goes on with the same attempt instead of
   * starting a new one: what it waits for is stored under that attempt (a
   * Sub-workflow step's child run), and a new attempt would start another.
   */
  resumesInPlace?: true;
  /**
   * A step of this kind is never retried as a whole, whatever its own or the
   * workflow's retry settings: a new attempt would do again what the first
   * did (a For each step would run every item again, those that succeeded
   * and changed something among them). Retries belong to the steps inside it.
   */
  neverRetried?: true;
  /**
   * A step of this kind only computes from what the run holds: nothing outside
   * the run changes and nothing is waited for. The engine starts it without
   * first waiting for its start to be stored, since a restart that finds it
   * cut off simply runs it again. (Tool steps decide this by their tool's
   * behaviour: read-only ones start at once too.)
   */
  onlyComputes?: true;
  /**
   * What a waiting step of this kind says it waits for, when that is not a
   * person (a Sub-workflow step waits for the run it called: nobody is asked
   * anything, so its status must not say "waiting for you"). Absent: its steps
   * wait only for approvals, "waiting for you".
   */
  waitingWords?: string;
  /** The node a palette drop makes; null when the item names nothing that exists (an uninstalled tool). */
  createNode: (item: Item, place: NewNodePlace) => Node | null;
  card: NodeCard<Node>;
}

/** What a building block's definition says beyond what its schema already does (see defineBlockKind). */
export type BlockKindSpec<Node extends NodeShape> = Omit<NodeKindDefinition<Node>, "kind" | "schema" | "palette" | "onePerWorkflow" | "handlesFailures" | "createNode"> & {
  palette: PaletteBlock;
  /** Defaults to false. */
  onePerWorkflow?: boolean;
  /** What a new node holds beyond its schema's defaults, made at drop time (a webhook's random hook id). */
  newNodeExtra?: () => Record<string, unknown>;
};

/**
 * The definition of a kind the palette lists as a building block, from what its schema already says: its `kind` is
 * the schema's `kind` literal, it `handlesFailures` when the schema spreads `failureHandling` (its nodes hold
 * execution settings), and a new node is the schema's defaults (plus `newNodeExtra`). Each is then written once, and
 * a palette drop cannot make a node its own schema would change.
 *
 * @example
 *   export const outputKind = defineBlockKind(OutputNodeSchema, { title: "Output", icon: "flag", palette: { help: "The run's result." }, card });
 */
export function defineBlockKind<Schema extends z.ZodType<NodeShape> & { shape: { kind: z.ZodLiteral<string> } }, Card extends NodeCard<z.infer<Schema>>>(
  schema: Schema,
  { newNodeExtra, onePerWorkflow = false, ...spec }: BlockKindSpec<z.infer<Schema>> & { card: Card },
) {
  type Node = z.infer<Schema>;
  const kind = schema.shape.kind.value as Node["kind"];
  const createNode = (_item: { kind: Node["kind"] }, { idFor, position }: NewNodePlace): Node =>
    schema.parse({ id: idFor(kind), kind, position, ...newNodeExtra?.() });
  const failures = "execution" in schema.shape ? { handlesFailures: true as const } : {};
  // `card` keeps its own type (what its content() returns, e.g. a For each's outputs, read in lib/run-view).
  return { ...spec, kind, schema, onePerWorkflow, ...failures, createNode };
}
