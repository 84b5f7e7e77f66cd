import type { CallToolResult, Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { DraftRequestSchema, MAX_GOAL_CHARACTERS } from "@/lib/contracts/architect";
import { AgentProviderSchema } from "@/nodes/agent/definition";
import { NotFoundError } from "@/lib/persistence";
import { CreateWorkflowBodySchema } from "@/lib/validations/workflow";
import type { Principal } from "./access/principal";
import { draftResult } from "./architect";
import { HttpError } from "./http";
import { mcpErrorResult } from "./mcp-results";
import { saveWorkflowAs, validateWithStudio } from "./workflow-api";

/**
 * Building workflows from an agent client (as n8n's MCP server lets one):
 * draft one from a goal with the Architect, check one with the studio's
 * validator, and save one as a new workflow, never published and never run.
 * For a personal access token that carries workflow:edit, under its person:
 * the same checks as the API (the Architect's schema, the validator, the save's
 * refusal of literal secrets and of privileged settings a token cannot confirm).
 */

export const DRAFT_WORKFLOW = "draft_workflow";
export const VALIDATE_WORKFLOW = "validate_workflow";
export const CREATE_WORKFLOW = "create_workflow";
/** Names no served workflow takes. */
export const ARCHITECT_TOOL_NAMES: readonly string[] = [DRAFT_WORKFLOW, VALIDATE_WORKFLOW, CREATE_WORKFLOW];

// The API's request, less the workflow being edited (an MCP caller drafts a new one): its limits and messages, not a copy.
const DraftArgumentsSchema = DraftRequestSchema.pick({ goal: true, model: true, current: true });
const DefinitionArgumentsSchema = z.strictObject({ definition: z.unknown() });

const modelProperty = {
  type: "object",
  description: "The model the studio asks, as an Agent node names it: provider (openai, anthropic, openai_compatible), model, baseUrl, apiKey as ${NAME} of a stored secret.",
  properties: {
    provider: { type: "string", enum: AgentProviderSchema.options },
    model: { type: "string" },
    baseUrl: { type: "string" },
    apiKey: { type: "string", description: "${NAME} of a stored secret; never the key itself" },
  },
  required: ["provider", "model"],
  additionalProperties: false,
} as const;

/** The three tools, for a caller whose token carries workflow:edit; none otherwise. */
export function architectTools(principal: Principal | null): McpTool[] {
  if (principal === null || !principal.scopes.has("workflow:edit")) return [];
  return [
    {
      name: DRAFT_WORKFLOW,
      title: "Draft a workflow from a goal",
      description:
        "Neurosurfer Studio's Architect drafts a workflow from a goal in words, using only the studio's tools, and checks it with the studio's validator (up to three rounds of repair). Returns the workflow definition with the problems left (for: model) and the settings a person must choose (for: person). Nothing is saved.",
      inputSchema: {
        type: "object",
        properties: { goal: { type: "string", maxLength: MAX_GOAL_CHARACTERS }, model: modelProperty, current: { type: "object", description: "A workflow definition to start from." } },
        required: ["goal", "model"],
        additionalProperties: false,
      },
      annotations: { title: "Draft a workflow from a goal", readOnlyHint: true, openWorldHint: true },
    },
    {
      name: VALIDATE_WORKFLOW,
      title: "Check a workflow",
      description: "Every problem of a workflow definition at once, each with its node and field, as the studio's editor shows them.",
      inputSchema: { type: "object", properties: { definition: { type: "object" } }, required: ["definition"], additionalProperties: false },
      annotations: { title: "Check a workflow", readOnlyHint: true, openWorldHint: false },
    },
    {
      name: CREATE_WORKFLOW,
      title: "Save a new workflow",
      description:
        "Saves a workflow definition as a new workflow of yours, unpublished (nothing runs until a person runs or publishes it). Literal secrets are refused, and so are settings that let actions run unasked.",
      inputSchema: { type: "object", properties: { definition: { type: "object" } }, required: ["definition"], additionalProperties: false },
      annotations: { title: "Save a new workflow", readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    },
  ];
}

/** Runs one of the three tools; null when `name` is none of them. */
export async function callArchitectTool(name: string, args: unknown, principal: Principal | null, request: Request): Promise<CallToolResult | null> {
  if (!ARCHITECT_TOOL_NAMES.includes(name)) return null;
  if (principal === null || !principal.scopes.has("workflow:edit")) return mcpErrorResult("Building workflows needs a personal access token that carries workflow:edit.");
  try {
    if (name === DRAFT_WORKFLOW) {
      const parsed = DraftArgumentsSchema.safeParse(args ?? {});
      if (!parsed.success) return badArguments(parsed.error);
      const result = await draftResult(parsed.data, principal, request.signal);
      const text = result.type === "failed" ? result.error : JSON.stringify({ definition: result.definition, problems: result.problems, rounds: result.rounds }, null, 2);
      return { content: [{ type: "text", text }], structuredContent: result as unknown as Record<string, unknown>, ...(result.type === "failed" ? { isError: true } : {}) };
    }
    const parsed = DefinitionArgumentsSchema.safeParse(args ?? {});
    if (!parsed.success) return badArguments(parsed.error);
    if (name === VALIDATE_WORKFLOW) {
      const { valid, problems } = await validateWithStudio(principal, parsed.data.definition);
      return { content: [{ type: "text", text: valid ? "No problems." : JSON.stringify(problems, null, 2) }], structuredContent: { valid, problems } };
    }
    const definition = CreateWorkflowBodySchema.safeParse(parsed.data.definition);
    if (!definition.success) return badArguments(definition.error, "definition");
    const saved = await saveWorkflowAs(request, principal, null, definition.data);
    return { content: [{ type: "text", text: `Saved as workflow ${saved.id} ("${saved.name}"), version ${saved.latestVersion}, unpublished.` }], structuredContent: { workflowId: saved.id, version: saved.latestVersion } };
  } catch (error) {
    if (error instanceof HttpError || NotFoundError.isInstance(error)) return mcpErrorResult(error.message);
    throw error;
  }
}

/** Arguments that do not fit, each problem named by its field, for the model to correct. */
function badArguments(error: z.ZodError, under?: string): CallToolResult {
  const path = (issue: z.core.$ZodIssue) => [under, ...issue.path].filter((part) => part !== undefined).join(".") || "arguments";
  return mcpErrorResult(`Bad arguments: ${error.issues.map((issue) => `${path(issue)}: ${issue.message}`).join("; ")}`);
}
