/**
 * What the Architect's model is told: the task, the rules the studio holds
 * it to, and what the studio has (the catalog's tools with their operations,
 * capabilities and input fields; the stored secrets' names, never values).
 * The answer's shape is also given to the provider as a JSON schema
 * (draft-schema.ts); the words here say what the schema cannot.
 */
import type { CatalogTool } from "@/lib/contracts/catalog";
import type { WorkflowDefinition } from "@/lib/workflow/definition";
import type { DraftProblem } from "./draft-problems";
import type { DraftVocabulary } from "./draft-schema";

const RULES = `You are the Architect of Neurosurfer Studio. A person describes an automation in words; you answer with a draft
workflow as one JSON object that follows the given schema exactly, and nothing else.

How a workflow works:
- Nodes run when the nodes before them (edges from -> to) have finished. A run starts at a "input" node (run by a
  person, with the fields it asks for) or at a trigger: "schedule" (form "cron" with a 5-field cron expression and an
  IANA timezone, or form "every" with everyMinutes).
- A "tool" node calls one tool of the catalog below with one of its operations (operation null for a tool without
  operations). Bind its arguments as fixed values or templates: {{ inputs.NAME }} (a run input), {{ nodes.ID.output }}
  (a finished step's text), {{ nodes.ID.data.FIELD }} (its structured result). A template names only steps upstream.
- "code" computes with JavaScript (the body of a function receiving inputs and nodes; return JSON). "router" takes one
  branch by conditions (its edges carry the route's id, or "default"). "output" is the run's result (value: a template).
- Plan in steps, each with what it needs from the capability vocabulary (the catalog's capabilities), and name the
  nodes that carry it out.

Rules the studio holds you to:
- Use only the tools, operations and argument fields listed. Never invent one.
- Never write a credential (an API key, a password, a token, an address with a password). A secret argument holds
  \${NAME} of a stored secret listed below, or is left out for the person to choose.
- Tool settings (root folders, policies, limits) are the person's decision: never write them; the studio asks them.
- mode is "default" (steps that change things wait for a person's approval) or "plan" (the person approves a plan
  first). Never anything else. When the goal asks for more (no approvals, unrestricted commands or network, writing
  anywhere), do not do it: add it to "declined" with what the person can do instead.
- Node ids: a letter, then letters, digits, - or _. Keep the ids of nodes of the current workflow that you keep.`;

/** The catalog as the model reads it: one block per tool, its operations with their capabilities and input fields. */
export function describeCatalog(tools: readonly CatalogTool[]): string {
  return tools
    .filter((tool) => !tool.unavailable)
    .map((tool) => {
      const secrets = tool.secretInputs.length > 0 ? `; secret arguments: ${tool.secretInputs.map((input) => input.name).join(", ")}` : "";
      const head = `- ${tool.name} (${tool.title}): ${tool.description.split("\n")[0]}${tool.flags.readOnly ? " [read-only]" : ""}${secrets}`;
      if (tool.operations.length === 0) return `${head}\n    fields: ${fieldsOf(tool.inputSchema)}; needs: ${tool.capabilities.join(", ") || "none"}`;
      const operations = tool.operations.map(
        (operation) => `    operation ${operation.name}: ${operation.description.split("\n")[0]}${operation.readOnly ? " [read-only]" : ""}; fields: ${fieldsOf(operation.inputSchema)}; does: ${operation.capabilities.join(", ") || "none"}`,
      );
      return [head, ...operations].join("\n");
    })
    .join("\n");
}

function fieldsOf(schema: Record<string, unknown>): string {
  const properties = (schema.properties ?? {}) as Record<string, { type?: unknown; description?: unknown }>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const names = Object.entries(properties).filter(([name]) => name !== "operation");
  if (names.length === 0) return "none";
  return names.map(([name, property]) => `${name}${required.has(name) ? "" : "?"}${typeof property.type === "string" ? ` (${property.type})` : ""}`).join(", ");
}

/** The system prompt for `vocabulary`. */
export function systemPrompt(vocabulary: DraftVocabulary): string {
  const secrets = vocabulary.secretNames.length > 0 ? vocabulary.secretNames.map((name) => `\${${name}}`).join(", ") : "(none stored yet)";
  return `${RULES}\n\nThe catalog:\n${describeCatalog(vocabulary.tools)}\n\nStored secrets: ${secrets}`;
}

/** The person's goal, with the workflow they start from when there is one (its graph only: what they decided stays theirs). */
export function goalMessage(goal: string, current?: WorkflowDefinition): string {
  if (!current) return `The goal:\n${goal}`;
  const graph = {
    name: current.name,
    // Without places on the canvas, and without tool settings: the person's, never the model's.
    nodes: current.nodes.map((node) => Object.fromEntries(Object.entries(node).filter(([key]) => key !== "position" && key !== "settings"))),
    edges: current.edges.map((edge) => ({ from: edge.source, to: edge.target, ...(edge.sourceHandle ? { route: edge.sourceHandle } : {}) })),
  };
  return `The goal:\n${goal}\n\nStart from the current workflow (change what the goal asks for, keep the rest and its node ids):\n${JSON.stringify(graph)}`;
}

/** A repair round's request: the problems with their paths, and the whole draft asked for again. */
export function repairMessage(problems: readonly DraftProblem[]): string {
  const lines = problems.map((problem) => `- ${problem.path || "(the draft)"}${problem.nodeId && !problem.path.startsWith("nodes") ? ` (node ${problem.nodeId})` : ""}: ${problem.message}`);
  return `The draft has these problems:\n${lines.join("\n")}\n\nAnswer with the whole corrected draft.`;
}
