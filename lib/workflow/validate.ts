import path from "node:path";
import { z } from "zod";
import { parseSecretReference, type SecretResolver, type Tool, type ToolPool } from "@/lib/tools";
import { DEFAULT_ROUTE, WorkflowDefinitionSchema, type AgentNode, type ToolNode, type WorkflowDefinition } from "./definition";
import { AGENT_CONTROL_TOOLS } from "./agent/agent-tools";
import { buildGraph, nodesOnCycles, reachableFrom, upstreamOf, type WorkflowGraph } from "./scheduler";
import { localAddressIn, stringsIn } from "./local-address";
import { mcpOriginProblem, unavailableProblem } from "./mcp-origin";
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

    switch (node.kind) {
      case "tool":
        await checkToolNode(node, options, problems, requirements, checkTemplates);
        break;
      case "router":
        node.routes.forEach((route, index) => {
          checkTemplates(route.value, `routes[${index}].value`);
          checkTemplates(route.compareTo, `routes[${index}].compareTo`);
        });
        break;
      case "output":
        checkTemplates(node.value, "value");
        break;
      case "agent":
        await checkAgentNode(node, definition, graph, options, problems, requirements, checkTemplates);
        break;
      case "input":
        break;
    }
  }
  return { valid: !problems.some((problem) => problem.severity === "error"), problems, requirements, definition };
}

async function checkAgentNode(
  node: AgentNode,
  definition: WorkflowDefinition,
  graph: WorkflowGraph,
  options: ValidationOptions,
  problems: WorkflowProblem[],
  requirements: WorkflowRequirement[],
  checkTemplates: (value: unknown, field: string) => void,
): Promise<void> {
  const error = (field: string | null, message: string) => problems.push({ nodeId: node.id, field, message, severity: "error" });
  if (!node.model) error("model", "Choose a model, e.g. gpt-4.1-mini (OpenAI), claude-sonnet-4-5 (Anthropic) or llama3.1 (Ollama).");
  if (node.provider === "openai_compatible" && !node.baseUrl) {
    error("baseUrl", "An OpenAI-compatible server needs its base URL, e.g. http://127.0.0.1:11434/v1 for Ollama.");
  }
  if (!node.task.trim()) error("task", "Write the task: what the agent should do in this run.");
  checkTemplates(node.task, "task");
  checkTemplates(node.systemPrompt, "systemPrompt");
  if (node.maxTurns > definition.guardrails.maxTurns) {
    error("maxTurns", `At most ${definition.guardrails.maxTurns} turns (the workflow's guardrail); lower it or raise the guardrail.`);
  }

  if (node.apiKey === undefined || node.apiKey === "") {
    if (node.provider !== "openai_compatible") error("apiKey", "This provider needs an API key: choose a stored secret, or store one in Settings → Secrets.");
  } else {
    const reference = parseSecretReference(node.apiKey);
    if (!reference) {
      error("apiKey", "This API key is written into the workflow in plain text. Store it in Settings → Secrets and reference it as ${NAME}.");
    } else {
      const stored = await options.secrets(reference);
      const problem = stored === undefined ? "is not set" : stored.trim() === "" ? "is empty" : "";
      requirements.push({ nodeId: node.id, kind: "secret", name: reference, field: "apiKey", satisfied: problem === "", problem });
      if (problem) error("apiKey", `The secret ${reference} ${problem}. Store the provider's API key in Settings → Secrets under that name.`);
    }
  }

  for (const toolNodeId of graph.attachments.get(node.id) ?? []) {
    const toolNode = definition.nodes.find((each) => each.id === toolNodeId);
    if (toolNode?.kind === "tool" && AGENT_CONTROL_TOOLS.includes(toolNode.tool)) {
      problems.push({
        nodeId: toolNodeId,
        field: "tool",
        message: `Every agent has ${toolNode.tool} already; remove this node.`,
        severity: "error",
      });
    }
  }
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

async function checkToolNode(
  node: ToolNode,
  options: ValidationOptions,
  problems: WorkflowProblem[],
  requirements: WorkflowRequirement[],
  checkTemplates: (value: unknown, field: string) => void,
): Promise<void> {
  const error = (field: string | null, message: string, severity: "error" | "warning" = "error") =>
    problems.push({ nodeId: node.id, field, message, severity });
  const tool = options.pool.get(node.tool);
  if (!tool || tool.name !== node.tool) {
    error("tool", `Unknown tool "${node.tool}". Known tools: ${options.pool.names().join(", ")}.`);
    return;
  }
  const refusal = mcpOriginProblem(node, tool) ?? unavailableProblem(tool);
  if (refusal !== null) {
    error("tool", refusal);
    return;
  }
  if (tool.operations) {
    const known = Object.keys(tool.operations);
    if (!node.operation) {
      error("operation", `Choose an operation of ${tool.title}: ${known.join(", ")}.`);
      return;
    }
    if (!known.includes(node.operation)) {
      error("operation", `${tool.title} has no operation "${node.operation}"; expected one of ${known.join(", ")}.`);
      return;
    }
  } else if (node.operation) {
    error("operation", `${tool.title} has no operations; clear the operation.`);
  }

  if (tool.settingsModel) {
    const parsed = tool.settingsModel.safeParse(node.settings);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) error(fieldName("settings", issue.path), issue.message.replace(/^Invalid input: /, ""));
    } else if (tool.rootSetting) {
      // The run would refuse a relative folder (lib/tools/confinement.ts); say so on the field while it is being built.
      const root = (parsed.data as Record<string, unknown>)[tool.rootSetting];
      if (typeof root === "string" && root.trim() !== "" && !path.isAbsolute(root)) {
        error(`settings.${tool.rootSetting}`, `Expected an absolute folder path, got "${root}": a relative folder would depend on where the server was started.`);
      }
    }
  } else if (Object.keys(node.settings).length > 0) {
    error("settings", `${tool.title} has nothing to configure; remove its settings.`);
  }

  const model = tool.inputModelFor(node.operation ? { operation: node.operation } : {});
  const shape = model instanceof z.ZodObject ? (model.shape as Record<string, z.ZodType>) : {};
  for (const [name, value] of Object.entries(node.arguments)) {
    const field = `arguments.${name}`;
    if (!(name in shape)) {
      error(field, `${tool.title} has no input "${name}"; known inputs: ${Object.keys(shape).join(", ") || "none"}.`);
      continue;
    }
    if (tool.secretInputs.includes(name)) continue;
    checkTemplates(value, field);
    if (findReferences(value).length === 0) {
      const parsed = shape[name]!.safeParse(value);
      if (!parsed.success) error(field, parsed.error.issues.map((issue) => issue.message.replace(/^Invalid input: /, "")).join("; "));
    }
  }

  for (const input of tool.secretInputs) {
    await checkSecretInput(tool, node, input, shape[input], error, requirements, options.secrets);
  }

  // A hosted tool (a remote MCP server's) runs elsewhere: this machine's localhost and private network are out of its reach.
  if (tool.runtime === "hosted") {
    for (const [field, text] of [...stringsIn(node.arguments, "arguments"), ...stringsIn(node.settings, "settings")]) {
      const address = localAddressIn(text);
      if (address) {
        error(field, `${tool.title} runs on a remote server, which cannot reach ${address} on this machine or its network. Use an address the server can reach, or a local tool.`);
      }
    }
  }
}

async function checkSecretInput(
  tool: Tool,
  node: ToolNode,
  input: string,
  schema: z.ZodType | undefined,
  error: (field: string | null, message: string, severity?: "error" | "warning") => void,
  requirements: WorkflowRequirement[],
  secrets: SecretResolver,
): Promise<void> {
  const field = `arguments.${input}`;
  const value = node.arguments[input];
  const required = schema ? !schema.safeParse(undefined).success : false;
  if (value === undefined || value === "") {
    if (required) error(field, `${tool.title} needs a secret for "${input}": choose a stored secret, or store one in Settings → Secrets.`);
    return;
  }
  if (typeof value !== "string") {
    error(field, `expected a \${NAME} reference to a stored secret.`);
    return;
  }
  const reference = parseSecretReference(value);
  if (!reference) {
    // Secrets are encrypted at rest; one typed into a workflow would not be, so such a workflow does not run.
    error(field, "This secret is written into the workflow in plain text. Store it in Settings → Secrets and reference it as ${NAME}.");
    return;
  }
  const stored = await secrets(reference);
  const problem = stored === undefined ? "is not set" : tool.checkSecret(input, stored);
  requirements.push({ nodeId: node.id, kind: "secret", name: reference, field: input, satisfied: problem === "", problem });
  if (problem) error(field, `The secret ${reference} ${problem}. ${tool.credentialHelp}`.trim());
}

function fieldName(prefix: string, path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, key) => (typeof key === "number" ? `${text}[${key}]` : `${text}.${String(key)}`), prefix);
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
