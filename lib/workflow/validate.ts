import type { z } from "zod";
import type { SecretResolver, ToolPool } from "@/lib/tools";
import { serverOf } from "@/nodes/server";
import { DEFAULT_ROUTE, WorkflowDefinitionSchema, type WorkflowDefinition } from "./definition";
import { fieldName } from "./field-path";
import { buildGraph, nodesOnCycles, reachableFrom, upstreamOf, type WorkflowGraph } from "./scheduler";
import { findReferences, TemplateError } from "./templates";

/** One thing wrong with a workflow, pinned to the node and field it concerns. */
export interface WorkflowProblem {
  nodeId: string | null;
  /** e.g. `settings.root`, `arguments.dsn`, `edges[2].target`. */
  field: string | null;
  message: string;
  severity: "error" | "warning";
}

/** A secret or setting the workflow needs, derived (never stored), with whether it is usable. */
export interface WorkflowRequirement {
  nodeId: string;
  kind: "secret" | "setting";
  /** The secret's name, or the settings key. */
  name: string;
  /** The tool input (for secrets) it feeds. */
  field: string;
  satisfied: boolean;
  /** Why it is not usable ("is not set", the tool's `checkSecret` answer); "" when satisfied. */
  problem: string;
}

export interface ValidationResult {
  valid: boolean;
  problems: WorkflowProblem[];
  requirements: WorkflowRequirement[];
  /** The parsed definition, when it parsed. */
  definition: WorkflowDefinition | null;
}

export interface ValidationOptions {
  pool: ToolPool;
  /** Looks up stored secrets, to tell set from usable. */
  secrets: SecretResolver;
}

/**
 * Every problem at once, each with its node and field: schema errors, unknown
 * tools or operations, bad settings, missing or unusable secrets, references
 * to nodes that are not upstream, cycles, unreachable nodes.
 */
export async function validateWorkflow(input: unknown, options: ValidationOptions): Promise<ValidationResult> {
  const parsed = WorkflowDefinitionSchema.safeParse(input);
  if (!parsed.success) {
    return { valid: false, problems: schemaProblems(parsed.error, input), requirements: [], definition: null };
  }
  const definition = parsed.data;
  const graph = buildGraph(definition);
  const problems: WorkflowProblem[] = [];
  const requirements: WorkflowRequirement[] = [];
  const error = (nodeId: string | null, field: string | null, message: string) =>
    problems.push({ nodeId, field, message, severity: "error" });

  checkStructure(definition, graph, error);
  const inputNames = new Set(definition.nodes.flatMap((node) => (node.kind === "input" ? node.fields.map((field) => field.name) : [])));

  for (const node of definition.nodes) {
    // A tool attached to an agent is called inside the agent's step: it sees what the agent sees.
    const agents = graph.attachedTo.get(node.id) ?? [];
    const upstream = agents.length > 0 ? new Set(agents.flatMap((agent) => [...upstreamOf(graph, agent)])) : upstreamOf(graph, node.id);
    const checkTemplates = (value: unknown, field: string) => {
      try {
        for (const reference of findReferences(value)) {
          if (reference.kind === "input" && !inputNames.has(reference.name)) {
            error(node.id, field, `{{ ${reference.expression} }}: the run has no input "${reference.name}"; add it to the input node.`);
          }
          if (reference.kind === "node" && !upstream.has(reference.nodeId)) {
            const exists = definition.nodes.some((each) => each.id === reference.nodeId);
            error(
              node.id,
              field,
              exists
                ? `{{ ${reference.expression} }}: node "${reference.nodeId}" is not upstream of this node; connect it first.`
                : `{{ ${reference.expression} }}: there is no node "${reference.nodeId}".`,
            );
          }
        }
      } catch (caught) {
        if (caught instanceof TemplateError) error(node.id, field, caught.message);
        else throw caught;
      }
    };

    // Each kind checks its own fields: nodes/<kind>/server.ts, through the table in nodes/server.ts.
    await serverOf(node).validate(node, {
      definition,
      graph,
      pool: options.pool,
      secrets: options.secrets,
      problems,
      requirements,
      checkTemplates,
    });
  }
  return { valid: !problems.some((problem) => problem.severity === "error"), problems, requirements, definition };
}

function checkStructure(
  definition: WorkflowDefinition,
  graph: WorkflowGraph,
  error: (nodeId: string | null, field: string | null, message: string) => void,
): void {
  if (definition.nodes.length === 0) error(null, "nodes", "The workflow has no nodes; add a tool from the palette.");
  const inputs = definition.nodes.filter((node) => node.kind === "input");
  for (const extra of inputs.slice(1)) error(extra.id, null, "A workflow has at most one input node; merge the fields into the first one.");
  for (const input of inputs) {
    if ((graph.incoming.get(input.id) ?? []).length > 0) error(input.id, null, "Nothing may feed the input node; it is where a run starts.");
    const names = new Set<string>();
    input.fields.forEach((field, index) => {
      if (names.has(field.name)) error(input.id, `fields[${index}].name`, `duplicate input "${field.name}"`);
      names.add(field.name);
    });
  }

  // An attached tool is called by the model, so nothing may feed it and it feeds only agents.
  definition.edges.forEach((edge, index) => {
    if (graph.attachedTo.has(edge.source) && graph.kinds.get(edge.target) !== "agent") {
      error(edge.source, `edges[${index}]`, "This tool is attached to an agent, so it runs only when the agent calls it; connect it to agents only.");
    }
    if (graph.attachedTo.has(edge.target)) {
      error(edge.target, `edges[${index}]`, "This tool is attached to an agent, whose model decides its inputs; nothing may feed it. Remove the edge, or connect the source to the agent instead.");
    }
  });

  for (const id of nodesOnCycles(graph)) error(id, null, "This node is on a cycle; workflows run in one direction. Remove one of the edges of the loop.");

  const routers = new Map(definition.nodes.flatMap((node) => (node.kind === "router" ? [[node.id, node] as const] : [])));
  definition.edges.forEach((edge, index) => {
    if (edge.source === edge.target) error(edge.source, `edges[${index}]`, "An edge cannot connect a node to itself.");
    const router = routers.get(edge.source);
    if (router) {
      const handles = [...router.routes.map((route) => route.id), DEFAULT_ROUTE];
      if (!edge.sourceHandle || !handles.includes(edge.sourceHandle)) {
        error(edge.source, `edges[${index}].sourceHandle`, `An edge out of a router must follow one of its routes: ${handles.join(", ")}.`);
      }
    }
  });
  for (const router of routers.values()) {
    const ids = new Set<string>();
    router.routes.forEach((route, index) => {
      if (ids.has(route.id) || route.id === DEFAULT_ROUTE) error(router.id, `routes[${index}].id`, `route id "${route.id}" is taken`);
      ids.add(route.id);
    });
  }

  // With an input node, everything should flow from it; without one, every root is a start.
  const starts = inputs.length > 0 ? inputs.map((node) => node.id) : graph.nodeIds.filter((id) => (graph.incoming.get(id) ?? []).length === 0);
  const reachable = reachableFrom(graph, starts);
  for (const id of graph.nodeIds) {
    if (!reachable.has(id)) error(id, null, "Nothing leads to this node, so it would never run; connect it to the input node or an upstream node.");
  }
}

/** Schema errors, attributed to the node they sit in where there is one. */
function schemaProblems(error: z.ZodError, input: unknown): WorkflowProblem[] {
  const nodes = (input as { nodes?: unknown } | null)?.nodes;
  return error.issues.map((issue) => {
    let nodeId: string | null = null;
    let path = issue.path;
    if (issue.path[0] === "nodes" && typeof issue.path[1] === "number" && Array.isArray(nodes)) {
      const raw = nodes[issue.path[1]] as { id?: unknown } | undefined;
      if (typeof raw?.id === "string") {
        nodeId = raw.id;
        path = issue.path.slice(2);
      }
    }
    const field = path.length > 0 ? fieldName("", path).replace(/^\./, "") : null;
    return { nodeId, field, message: issue.message.replace(/^Invalid input: /, ""), severity: "error" as const };
  });
}
