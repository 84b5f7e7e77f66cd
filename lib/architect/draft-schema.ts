/**
 * The shape the Architect's model answers in, built from what the studio
 * really has, so that what does not exist cannot be said: a tool step names
 * a tool of the catalog and one of that tool's operations (literals of a
 * union), and binds only that operation's input fields; a secret input holds
 * `${NAME}` of a stored secret, never a value; the workflow's mode is
 * `default` or `plan` (the privileged modes are not in the vocabulary). A
 * tool's settings are never the model's: the seed page's rule (settings are
 * decided by whoever builds the workflow) holds for the Architect too, and
 * the proposal lists them for the person. The answer is data: nothing in it
 * is evaluated, imported or run while drafting.
 */
import { z } from "zod";
import type { CatalogTool } from "@/lib/contracts/catalog";
import { secretLookingValues } from "@/lib/workflow/secret-looking";
import { CodeNodeSchema, type CodeNode } from "@/nodes/code/definition";
import { InputNodeSchema, type InputNode } from "@/nodes/input/definition";
import { NodeIdSchema } from "@/nodes/node-base";
import { OutputNodeSchema, type OutputNode } from "@/nodes/output/definition";
import { RouterNodeSchema, type RouterNode } from "@/nodes/router/definition";
import { ScheduleNodeSchema, type ScheduleNode } from "@/nodes/schedule/definition";
import type { ToolNode } from "@/nodes/tool/definition";

/** Steps a draft may have: a workflow a person can review at a glance, not a program. */
export const MAX_DRAFT_NODES = 60;

/** The modes a draft may choose: the privileged ones (`accept_edits`, `bypass`) are a person's decision, never a model's. */
export const DRAFT_MODES = ["default", "plan"] as const;

/**
 * A step of the plan: what it does and why, what it needs in the capability
 * vocabulary (`db.query`, `file.write`; the catalog's own), and which of the
 * draft's nodes carry it out. The proposal shows the reason beside each node;
 * a tool that does not provide the need is sent back with the tools that do.
 */
function planStepSchema(capabilities: readonly string[]) {
  return z.strictObject({
    /** The step in words, e.g. "Read yesterday's orders from the shop database". */
    step: z.string().min(1).max(300),
    /** Why this step, and why this tool. */
    reason: z.string().max(600),
    capability: (capabilities.length > 0 ? z.enum(capabilities as [string, ...string[]]) : z.never()).optional(),
    /** The draft's nodes that carry it out. */
    nodeIds: z.array(NodeIdSchema).max(MAX_DRAFT_NODES),
  });
}

/** Something the goal asked for that the Architect may not set (a privileged mode, an open policy), and what to do instead. */
export const DeclinedSchema = z.strictObject({
  request: z.string().min(1).max(300),
  reason: z.string().max(600),
});

export const DraftEdgeSchema = z.strictObject({
  from: NodeIdSchema,
  to: NodeIdSchema,
  /** Out of a router: the route this edge follows (a route's id, or `default`). */
  route: z.string().max(64).optional(),
});
export type DraftEdge = z.infer<typeof DraftEdgeSchema>;

/** A building block as the workflow stores it, minus its place on the canvas (laid out when the draft becomes a workflow). */
const withoutPosition = <Shape extends z.ZodRawShape>(schema: z.ZodObject<Shape>) => schema.omit({ position: true } as never).strict();

/** The catalog's tools and the stored secrets' names: what a draft may use. */
export interface DraftVocabulary {
  tools: readonly CatalogTool[];
  /** Names of stored secrets, e.g. SHOP_DB: a secret input may hold `${SHOP_DB}`. */
  secretNames: readonly string[];
}

/** The fields of an operation's input (or of the tool's, without operations) as a model may bind them. */
function inputFieldsOf(schema: Record<string, unknown>): string[] {
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  return Object.keys(properties).filter((name) => name !== "operation");
}

/**
 * The tool step's schema: a union keyed by `tool` (a literal per catalog
 * tool), each keyed again by `operation` (a literal per operation, `null` for
 * a tool without), so an unknown tool or another tool's operation is refused
 * naming the field and the choices. `arguments` hold that operation's fields
 * only (each a fixed value or a `{{ … }}` template; the studio's validator
 * checks the values), a secret input `${NAME}` of a stored secret.
 */
function toolStepSchema(vocabulary: DraftVocabulary): z.ZodType | null {
  const references = vocabulary.secretNames.map((name) => `\${${name}}`);
  const secretReference = references.length > 0 ? z.enum(references as [string, ...string[]]) : z.never();
  const perTool: z.ZodType[] = [];
  for (const tool of vocabulary.tools) {
    if (tool.unavailable) continue;
    const secretInputs = new Set(tool.secretInputs.map((input) => input.name));
    const operations: { name: string | null; fields: string[]; description: string }[] =
      tool.operations.length > 0
        ? tool.operations.map((operation) => ({ name: operation.name, fields: inputFieldsOf(operation.inputSchema), description: operation.description }))
        : [{ name: null, fields: inputFieldsOf(tool.inputSchema), description: tool.description }];
    const members = operations.map((operation) => {
      const argumentShape: Record<string, z.ZodType> = {};
      for (const field of [...new Set([...operation.fields, ...secretInputs])]) {
        argumentShape[field] = secretInputs.has(field) ? secretReference.optional().describe("a stored secret as ${NAME}; never a value") : z.unknown().optional();
      }
      return z
        .strictObject({
          id: NodeIdSchema,
          label: z.string().max(200).optional(),
          kind: z.literal("tool"),
          tool: z.literal(tool.name),
          operation: operation.name === null ? z.null() : z.literal(operation.name),
          arguments: z.strictObject(argumentShape).superRefine(refuseCredentials),
        })
        .describe(`${tool.title}${operation.name ? ` (${operation.name})` : ""}: ${operation.description}`.slice(0, 500));
    });
    perTool.push(members.length === 1 ? members[0]! : z.discriminatedUnion("operation", members as unknown as [z.ZodObject, ...z.ZodObject[]]));
  }
  if (perTool.length === 0) return null;
  return perTool.length === 1 ? perTool[0]! : z.discriminatedUnion("tool", perTool as unknown as [z.ZodObject, ...z.ZodObject[]]);
}

/** A literal credential anywhere in a step's arguments: refused where it is, saying what to do instead. */
function refuseCredentials(values: Record<string, unknown>, context: z.RefinementCtx): void {
  for (const found of secretLookingValues(values)) {
    context.addIssue({
      code: "custom",
      path: found.path,
      message: `${found.reason}: a credential is never written into a workflow; store it under Settings → Secrets and bind \${NAME}`,
    });
  }
}

/**
 * The schema of the model's answer for `vocabulary`: the plan, the nodes
 * (building blocks in their own stored shapes, tool steps from the catalog),
 * the edges and what was declined. Node ids are unique; the rest of what makes
 * a workflow sound (edges to nodes that exist, no cycles, templates that
 * resolve) is the studio's validator's, whose problems go back to the model.
 */
export function draftSchema(vocabulary: DraftVocabulary) {
  const toolStep = toolStepSchema(vocabulary);
  const members = [
    withoutPosition(InputNodeSchema),
    withoutPosition(ScheduleNodeSchema),
    withoutPosition(CodeNodeSchema),
    withoutPosition(RouterNodeSchema),
    withoutPosition(OutputNodeSchema),
    ...(toolStep ? [toolStep] : []),
  ] as unknown as [z.ZodObject, ...z.ZodObject[]];
  return z
    .strictObject({
      name: z.string().trim().min(1).max(200),
      description: z.string().max(2_000).default(""),
      mode: z.enum(DRAFT_MODES).default("default"),
      plan: z.array(planStepSchema([...new Set(vocabulary.tools.flatMap((tool) => tool.capabilities))])).max(MAX_DRAFT_NODES),
      nodes: z.array(z.discriminatedUnion("kind", members)).min(1).max(MAX_DRAFT_NODES),
      edges: z.array(DraftEdgeSchema).max(MAX_DRAFT_NODES * 4),
      declined: z.array(DeclinedSchema).max(20).default([]),
    })
    .superRefine((draft, context) => {
      const seen = new Set<string>();
      draft.nodes.forEach((node, index) => {
        const id = (node as { id: string }).id;
        if (seen.has(id)) context.addIssue({ code: "custom", path: ["nodes", index, "id"], message: `duplicate node id "${id}"` });
        seen.add(id);
      });
    });
}

/** A tool step of a draft: the stored tool node's fields the model may write (never its settings). */
export type DraftToolStep = Pick<ToolNode, "id" | "label" | "kind" | "tool" | "operation" | "arguments">;
type WithoutPosition<Node> = Node extends unknown ? Omit<Node, "position"> : never;
/** A node of a draft: a building block in its stored shape, or a tool step; placed when the draft becomes a workflow. */
export type DraftNode = DraftToolStep | WithoutPosition<InputNode | ScheduleNode | CodeNode | RouterNode | OutputNode>;
export type Draft = Omit<z.infer<ReturnType<typeof draftSchema>>, "nodes"> & { nodes: DraftNode[] };
export type PlanStep = Draft["plan"][number];
