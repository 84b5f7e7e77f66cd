import { z } from "zod";
// The framework's browser-safe entry, not its index (which reaches node:fs): this module stays browser-safe, like the node definitions it unites.
import { GuardrailsSchema, PermissionModeSchema } from "@/lib/tools/contracts";
import { WorkflowApprovalPoliciesSchema } from "@/lib/contracts/approval-policy";
import { DefaultOnErrorActionSchema, WorkflowExecutionDefaultsSchema } from "@/lib/contracts/execution-settings";
import { WorkflowNodeSchema } from "@/nodes/definitions";
import { NodeIdSchema } from "@/nodes/node-base";

/**
 * The single source of truth for a workflow. The editor, the API, the
 * database boundary, import/export and the runner all parse with these schemas.
 */
export const WORKFLOW_FORMAT_VERSION = 1;

// Each node kind's schema lives in its folder under nodes/ (nodes/router/definition.ts, …);
// nodes/definitions.ts unites them. Re-exported here so imports from this module keep working.
export { NodeIdSchema, PositionSchema } from "@/nodes/node-base";
export { WorkflowNodeSchema, type NodeKind, type WorkflowNode } from "@/nodes/definitions";
export { InputFieldSchema, InputNodeSchema, type InputField, type InputNode } from "@/nodes/input/definition";
export { ToolNodeSchema, type ToolNode } from "@/nodes/tool/definition";
export {
  AgentNodeSchema,
  AgentProviderSchema,
  DEFAULT_AGENT_MAX_TURNS,
  type AgentNode,
  type AgentProvider,
} from "@/nodes/agent/definition";
export {
  ConditionOperatorSchema,
  DEFAULT_ROUTE,
  RouteSchema,
  RouterNodeSchema,
  type ConditionOperator,
  type Route,
  type RouterNode,
} from "@/nodes/router/definition";
export { OutputNodeSchema, type OutputNode } from "@/nodes/output/definition";

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
    /**
     * What happens when a node fails for good, for nodes that do not say
     * (their `execution.onError`): `stop` fails the run there; `continue` lets
     * the steps after it run, reading the error as its output.
     */
    onError: DefaultOnErrorActionSchema.default("stop"),
    /** The nodes' default retries and time limit (lib/contracts/execution-settings.ts); each node may set its own. */
    execution: WorkflowExecutionDefaultsSchema.optional(),
    /**
     * A workflow that runs when a run of this one fails, with the failed run's
     * id, workflow, node and error as its inputs (lib/contracts/run-trigger.ts,
     * ERROR_WORKFLOW_INPUTS). A run it starts never starts another.
     */
    errorWorkflowId: z.string().trim().min(1, "choose a workflow, or leave it empty").max(64).optional(),
    /** Who decides this workflow's approvals, per kind and by default (lib/contracts/approval-policy.ts); a node may set its own. */
    approvals: WorkflowApprovalPoliciesSchema.optional(),
    /**
     * Keep a step's whole result when it is too large to store in the step
     * (lib/workflow/bound-output.ts): later steps and the run page still read
     * the stored part, and the whole is downloadable from the run page while
     * the run is kept (lib/persistence/kept-outputs.ts). Off: only the stored part exists.
     */
    keepFullOutputs: z.boolean().optional(),
    /**
     * Let this workflow's traces (OpenTelemetry, lib/observability/run-spans.ts) carry what its runs were given and
     * gave: the run's inputs and output, each step's output, an agent's tool calls' arguments and results, as the
     * run page shows them (secret values masked). Off: only ids, kinds, statuses, errors and token counts are exported.
     */
    traceContent: z.boolean().optional(),
    nodes: z.array(WorkflowNodeSchema).max(5000),
    edges: z.array(WorkflowEdgeSchema).max(20_000).default([]),
  })
  // Also when a node or an edge is itself invalid (`when`), so a save names every problem it refuses for at once:
  // the definition then arrives partly parsed, hence the checks on each id's type.
  .superRefine(
    (definition, ctx) => {
      const seen = new Set<string>();
      definition.nodes.forEach((node: { id?: unknown }, index) => {
        if (typeof node?.id !== "string") return;
        if (seen.has(node.id)) ctx.addIssue({ code: "custom", path: ["nodes", index, "id"], message: `duplicate node id "${node.id}"` });
        seen.add(node.id);
      });
      const edgeIds = new Set<string>();
      definition.edges.forEach((edge: Partial<Record<"id" | "source" | "target", unknown>>, index) => {
        if (typeof edge?.id === "string") {
          if (edgeIds.has(edge.id)) ctx.addIssue({ code: "custom", path: ["edges", index, "id"], message: `duplicate edge id "${edge.id}"` });
          edgeIds.add(edge.id);
        }
        for (const end of ["source", "target"] as const) {
          const nodeId = edge?.[end];
          if (typeof nodeId === "string" && !seen.has(nodeId)) {
            ctx.addIssue({ code: "custom", path: ["edges", index, end], message: `no node with id "${nodeId}"` });
          }
        }
      });
    },
    { when: ({ value }) => isObjectWithArrays(value, "nodes", "edges") },
  );

/** Whether `value` is an object whose named fields are arrays (the checks across nodes and edges can run). */
function isObjectWithArrays(value: unknown, ...fields: string[]): value is Record<string, unknown[]> {
  return typeof value === "object" && value !== null && fields.every((field) => Array.isArray((value as Record<string, unknown>)[field]));
}

export type WorkflowDefinition = z.infer<typeof WorkflowDefinitionSchema>;
/** What a caller may send: defaults not yet applied. */
export type WorkflowDefinitionInput = z.input<typeof WorkflowDefinitionSchema>;
