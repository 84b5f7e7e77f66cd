import { z } from "zod";
// The framework's browser-safe entry: this file reaches the browser, the built-in tools must not.
import { GuardrailsSchema, PermissionModeSchema } from "@/lib/tools/contracts";
import { DEFAULT_AGENT_MAX_TURNS } from "./agent-defaults";

/**
 * The single source of truth for a workflow. The editor, the API, the
 * database boundary, import/export and the runner all parse with these schemas.
 */
export const WORKFLOW_FORMAT_VERSION = 1;

const NODE_ID = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

export const NodeIdSchema = z
  .string()
  .regex(NODE_ID, "a node id starts with a letter and has at most 64 letters, digits, - or _");

export const PositionSchema = z.object({ x: z.number().finite(), y: z.number().finite() });

const nodeBase = {
  id: NodeIdSchema,
  /** What the canvas card shows; defaults to the tool's title. */
  label: z.string().max(200).optional(),
  position: PositionSchema.default({ x: 0, y: 0 }),
};

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

/**
 * One tool, one operation. `settings` follow the tool's settings model;
 * `arguments` are bound by the builder (fixed values or `{{ ... }}`
 * templates) and supplied on every call; secret inputs hold `${NAME}`.
 */
export const ToolNodeSchema = z.object({
  ...nodeBase,
  kind: z.literal("tool"),
  tool: z.string().min(1, "choose a tool"),
  operation: z.string().min(1).nullable().default(null),
  settings: z.record(z.string(), z.unknown()).default({}),
  arguments: z.record(z.string(), z.unknown()).default({}),
  /**
   * The MCP server the tool came from when the node was saved (recorded on
   * save). Should the name later resolve to another server's tool, validation
   * says so instead of running against a server nobody chose.
   */
  mcpServer: z.string().min(1).max(40).optional(),
});

/** Where an agent's model is served. `openai_compatible` covers Ollama, vLLM, LM Studio and similar servers. */
export const AgentProviderSchema = z
  .enum(["openai", "anthropic", "openai_compatible"])
  .describe("Who serves the model: OpenAI, Anthropic, or any OpenAI-compatible server (Ollama, vLLM, LM Studio).");
export type AgentProvider = z.infer<typeof AgentProviderSchema>;

export { DEFAULT_AGENT_MAX_TURNS };

/**
 * A model that works on a task with the tools attached to it on the canvas
 * (edges from tool nodes into this node). Its answer is the node's output.
 * `provider` and `model` are checked by validation, not here, so a half-built
 * agent can be saved and shows its problems on the fields.
 */
export const AgentNodeSchema = z.object({
  ...nodeBase,
  kind: z.literal("agent"),
  provider: AgentProviderSchema.default("openai"),
  model: z.string().trim().max(200).default("").describe("The model id, e.g. gpt-4.1-mini, claude-sonnet-4-5 or llama3.1."),
  baseUrl: z
    .url({ protocol: /^https?$/, error: "expected an http(s) URL, e.g. http://127.0.0.1:11434/v1" })
    .max(2000)
    .optional()
    .describe("The server's API address, for OpenAI-compatible servers (Ollama: http://127.0.0.1:11434/v1)."),
  apiKey: z
    .string()
    .max(200)
    .optional()
    .describe("A stored secret, as ${NAME}; local servers usually need none."),
  systemPrompt: z.string().max(20_000).default("").describe("Standing instructions: who the agent is and how it works."),
  task: z.string().max(20_000).default("").describe("What to do in this run; may refer to {{ inputs.x }} and {{ nodes.id.output }}."),
  /** `undefined` = the workflow's mode. */
  mode: PermissionModeSchema.optional(),
  maxTurns: z.number().int().positive().max(10_000).default(DEFAULT_AGENT_MAX_TURNS).describe("Most model turns before the agent stops."),
});

export const ConditionOperatorSchema = z.enum([
  "equals",
  "not_equals",
  "contains",
  "not_contains",
  "matches",
  "greater_than",
  "less_than",
  "is_empty",
  "is_not_empty",
  "is_true",
  "is_false",
]);
export type ConditionOperator = z.infer<typeof ConditionOperatorSchema>;

export const RouteSchema = z.object({
  id: z.string().regex(FIELD_NAME, "a route id is a letter or _ followed by letters, digits or _"),
  label: z.string().max(200).optional(),
  /** A template, e.g. `{{ nodes.check.output }}`. */
  value: z.string().max(2000),
  operator: ConditionOperatorSchema,
  compareTo: z.string().max(2000).default(""),
});
export type Route = z.infer<typeof RouteSchema>;

/** The default route's handle: taken when no route's condition holds. */
export const DEFAULT_ROUTE = "default";

/** Chooses one branch: the first route whose condition holds, else `default`. */
export const RouterNodeSchema = z.object({
  ...nodeBase,
  kind: z.literal("router"),
  routes: z.array(RouteSchema).max(50).default([]),
});

/** The run's result: a template over inputs and upstream outputs. */
export const OutputNodeSchema = z.object({
  ...nodeBase,
  kind: z.literal("output"),
  value: z.string().max(20_000).default(""),
});

export const WorkflowNodeSchema = z.discriminatedUnion("kind", [
  InputNodeSchema,
  ToolNodeSchema,
  AgentNodeSchema,
  RouterNodeSchema,
  OutputNodeSchema,
]);
export type WorkflowNode = z.infer<typeof WorkflowNodeSchema>;
export type NodeKind = WorkflowNode["kind"];
export type ToolNode = z.infer<typeof ToolNodeSchema>;
export type AgentNode = z.infer<typeof AgentNodeSchema>;
export type RouterNode = z.infer<typeof RouterNodeSchema>;
export type InputNode = z.infer<typeof InputNodeSchema>;
export type OutputNode = z.infer<typeof OutputNodeSchema>;

export const WorkflowEdgeSchema = z.object({
  id: z.string().min(1).max(200),
  source: NodeIdSchema,
  target: NodeIdSchema,
  /** For edges out of a router: the route id (or `default`) this edge follows. */
  sourceHandle: z.string().max(64).nullable().default(null),
});
export type WorkflowEdge = z.infer<typeof WorkflowEdgeSchema>;

export const WorkflowDefinitionSchema = z
  .object({
    formatVersion: z.literal(WORKFLOW_FORMAT_VERSION).default(WORKFLOW_FORMAT_VERSION),
    name: z.string().trim().min(1, "give the workflow a name").max(200),
    description: z.string().max(5000).default(""),
    mode: PermissionModeSchema.default("default"),
    guardrails: GuardrailsSchema.default(GuardrailsSchema.parse({})),
    /** `stop` fails the run at the first failed node; `continue` skips what depended on it. */
    onError: z.enum(["stop", "continue"]).default("stop"),
    nodes: z.array(WorkflowNodeSchema).max(5000),
    edges: z.array(WorkflowEdgeSchema).max(20_000).default([]),
  })
  .superRefine((definition, ctx) => {
    const seen = new Set<string>();
    definition.nodes.forEach((node, index) => {
      if (seen.has(node.id)) ctx.addIssue({ code: "custom", path: ["nodes", index, "id"], message: `duplicate node id "${node.id}"` });
      seen.add(node.id);
    });
    const edgeIds = new Set<string>();
    definition.edges.forEach((edge, index) => {
      if (edgeIds.has(edge.id)) ctx.addIssue({ code: "custom", path: ["edges", index, "id"], message: `duplicate edge id "${edge.id}"` });
      edgeIds.add(edge.id);
      for (const end of ["source", "target"] as const) {
        if (!seen.has(edge[end])) {
          ctx.addIssue({ code: "custom", path: ["edges", index, end], message: `no node with id "${edge[end]}"` });
        }
      }
    });
  });

export type WorkflowDefinition = z.infer<typeof WorkflowDefinitionSchema>;
/** What a caller may send: defaults not yet applied. */
export type WorkflowDefinitionInput = z.input<typeof WorkflowDefinitionSchema>;
