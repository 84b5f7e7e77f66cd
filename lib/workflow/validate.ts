import { enclosingLoops } from "./loop-body";
import type { z } from "zod";
import type { SecretResolver, ToolPool } from "@/lib/tools";
import { startsRunsOf } from "@/nodes/definitions";
import { serverOf } from "@/nodes/server";
import { DEFAULT_ROUTE, NodeIdSchema, WorkflowDefinitionSchema, WorkflowEdgeSchema, WorkflowNodeSchema, type WorkflowDefinition } from "./definition";
import { fieldName } from "./field-path";
import { ERROR_HANDLE } from "@/lib/contracts/execution-settings";
import { buildGraph, isErrorEdge, nodesOnCycles, reachableFrom, upstreamOf, type WorkflowGraph } from "./scheduler";
import { findReferences, TemplateError } from "./templates";
import { checkFailureHandling, type WorkflowLookup } from "./validate-failures";
import type { WorkflowProblem, WorkflowRequirement } from "@/lib/contracts/workflow-problem";

// Defined in lib/contracts (below nodes/, which reports them too); kept importable from here.
export type { WorkflowProblem, WorkflowRequirement };

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
  /** Finds other workflows, to check the error workflow and the workflows Sub-workflow steps call; absent (a file run by the CLI): those checks are left out. */
  workflows?: WorkflowLookup;
}

/**
 * Every problem at once, each with its node and field: schema errors, unknown
 * tools or operations, bad settings, missing or unusable secrets, references
 * to nodes that are not upstream, cycles, unreachable nodes.
 */
export async function validateWorkflow(input: unknown, options: ValidationOptions): Promise<ValidationResult> {
  const parsed = WorkflowDefinitionSchema.safeParse(input);
  if (!parsed.success) {
    // Shape errors first, then what the rest of the workflow means, checked on the part that has a shape.
    const problems = schemaProblems(parsed.error, input);
    const salvaged = salvage(input);
    if (!salvaged) return { valid: false, problems, requirements: [], definition: null };
    const meaning = await checkMeaning(salvaged.definition, options);
    const known = new Set(problems.map((problem) => `${problem.nodeId}|${problem.field}`));
    for (const problem of [...salvaged.problems, ...meaning.problems]) {
      // A stand-in's problems are its shape error's; a field already reported says enough.
      if (problem.nodeId !== null && salvaged.standIns.has(problem.nodeId)) continue;
      if (known.has(`${problem.nodeId}|${problem.field}`)) continue;
      problems.push(problem);
    }
    return { valid: false, problems, requirements: meaning.requirements, definition: null };
  }
  const { problems, requirements } = await checkMeaning(parsed.data, options);
  return { valid: !problems.some((problem) => problem.severity === "error"), problems, requirements, definition: parsed.data };
}

/**
 * The workflow's meaning (tools, settings, secrets, references, structure),
 * for a definition that has its shape. Problems in the order they are found.
 */
async function checkMeaning(definition: WorkflowDefinition, options: ValidationOptions): Promise<{ problems: WorkflowProblem[]; requirements: WorkflowRequirement[] }> {
  const graph = buildGraph(definition);
  const problems: WorkflowProblem[] = [];
  const requirements: WorkflowRequirement[] = [];
  const error = (nodeId: string | null, field: string | null, message: string) =>
    problems.push({ nodeId, field, message, severity: "error" });

  checkStructure(definition, graph, error);
  await checkFailureHandling(definition, graph, error, options.workflows);
  const inputNames = new Set(definition.nodes.flatMap((node) => (node.kind === "input" ? node.fields.map((field) => field.name) : [])));
  const loops = enclosingLoops(definition);

  for (const node of definition.nodes) {
    // A tool attached to an agent is called inside the agent's step: it sees what the agent sees.
    const agents = graph.attachedTo.get(node.id) ?? [];
    const upstream = agents.length > 0 ? new Set(agents.flatMap((agent) => [...upstreamOf(graph, agent)])) : upstreamOf(graph, node.id);
    const checkTemplates = (value: unknown, field: string) => {
      try {
        for (const reference of findReferences(value)) {
          if (reference.kind === "item" && !loops.has(node.id)) {
            error(node.id, field, `{{ ${reference.expression} }}: item and index exist only in the nodes of a For each loop's body; connect this node from a For each's “each item” handle.`);
          }
          if (reference.kind === "input" && !inputNames.has(reference.name)) {
            error(node.id, field, `{{ ${reference.expression} }}: the run has no input "${reference.name}"; ${expectedInputs(inputNames)}`);
          }
          if (reference.kind === "node" && !upstream.has(reference.nodeId)) {
            const exists = definition.nodes.some((each) => each.id === reference.nodeId);
            error(
              node.id,
              field,
              exists
                ? `{{ ${reference.expression} }}: node "${reference.nodeId}" is not upstream of this node; connect it first, or use ${expectedNodes(upstream, definition)}.`
                : `{{ ${reference.expression} }}: there is no node "${reference.nodeId}"; expected ${expectedNodes(upstream, definition)}.`,
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
      ...(options.workflows ? { workflows: options.workflows } : {}),
    });
  }
  return { problems, requirements };
}

/** What a template may name instead: the declared run inputs. */
function expectedInputs(names: ReadonlySet<string>): string {
  return names.size === 0 ? "the workflow declares none: add it to the input node." : `declared: ${[...names].join(", ")}; or add it to the input node.`;
}

/** What a template may name instead: the nodes upstream of the field's node (the input node's fields are named by inputs.<name>). */
function expectedNodes(upstream: ReadonlySet<string>, definition: WorkflowDefinition): string {
  const ids = definition.nodes.filter((node) => upstream.has(node.id) && node.kind !== "input").map((node) => node.id);
  return ids.length === 0 ? "a node upstream of this one (none is yet)" : `a node upstream of this one: ${ids.join(", ")}`;
}

/**
 * The part of a definition that has a shape, for checking what it means while
 * its shape errors are reported: each node that parses, a stand-in (an empty
 * output, whose own problems are left out) for each that does not, so edges
 * and references to it still hold; the edges that parse; invalid top-level
 * fields at their defaults. An edge naming no node at all is a problem here,
 * since the schema says so only once every node parses. Null when nothing of
 * it can be read.
 */
function salvage(input: unknown): { definition: WorkflowDefinition; standIns: Set<string>; problems: WorkflowProblem[] } | null {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return null;
  const raw = input as Record<string, unknown>;
  const standIns = new Set<string>();
  const problems: WorkflowProblem[] = [];
  const rawNodes = Array.isArray(raw.nodes) ? raw.nodes : [];
  const nodes = rawNodes.flatMap((node: unknown) => {
    if (WorkflowNodeSchema.safeParse(node).success) return [node];
    const id = (node as { id?: unknown } | null)?.id;
    if (typeof id !== "string" || !NodeIdSchema.safeParse(id).success) return [];
    standIns.add(id);
    return [{ id, kind: "output", value: "" }];
  });
  const ids = new Set(nodes.map((node) => (node as { id: string }).id));
  const edges = (Array.isArray(raw.edges) ? raw.edges : []).flatMap((edge: unknown, index: number) => {
    const parsedEdge = WorkflowEdgeSchema.safeParse(edge);
    if (!parsedEdge.success) return [];
    const missing = (["source", "target"] as const).filter((end) => !ids.has(parsedEdge.data[end]));
    for (const end of missing) problems.push({ nodeId: null, field: `edges[${index}].${end}`, message: `no node with id "${parsedEdge.data[end]}"`, severity: "error" });
    return missing.length === 0 ? [edge] : [];
  });
  let candidate: Record<string, unknown> = { ...raw, nodes, edges };
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const parsed = WorkflowDefinitionSchema.safeParse(candidate);
    if (parsed.success) return { definition: parsed.data, standIns, problems };
    // Top-level fields that do not fit go back to their defaults (a name to a placeholder); their errors are reported already.
    const fields = new Set(parsed.error.issues.map((issue) => issue.path[0]).filter((key): key is string => typeof key === "string" && key !== "nodes" && key !== "edges"));
    if (fields.size === 0) return null;
    candidate = Object.fromEntries(Object.entries(candidate).filter(([key]) => !fields.has(key)));
    if (fields.has("name")) candidate.name = "(unnamed)";
  }
  return null;
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
    // An error edge leaves from the error handle, not a route (checkFailureHandling says whether it may).
    if (router && !isErrorEdge(edge)) {
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
      else if (route.id === ERROR_HANDLE) error(router.id, `routes[${index}].id`, `route id "${ERROR_HANDLE}" is taken: it names the router's error path; call the route something else`);
      ids.add(route.id);
    });
  }

  // Triggers start runs (a webhook, a schedule): nothing flows into them either.
  const entries = definition.nodes.filter((node) => startsRunsOf(node.kind) !== null);
  for (const entry of entries) {
    if (entry.kind !== "input" && (graph.incoming.get(entry.id) ?? []).length > 0) {
      error(entry.id, null, "Nothing may feed a trigger; it is where a run starts. Remove the edges into it.");
    }
  }
  // With an input node or triggers, everything should flow from them; without, every root is a start.
  const starts = entries.length > 0 ? entries.map((node) => node.id) : graph.nodeIds.filter((id) => (graph.incoming.get(id) ?? []).length === 0);
  const reachable = reachableFrom(graph, starts);
  for (const id of graph.nodeIds) {
    if (!reachable.has(id)) error(id, null, "Nothing leads to this node, so it would never run; connect it to the input node, a trigger or an upstream node.");
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
