import { z } from "zod";
// The file itself, not the @/lib/tools index: that index reaches node:fs, and this module is in the editor's bundle.
import { PermissionModeSchema } from "@/lib/tools/permissions/guardrails";
import { approvalPolicy, failureHandling, nodeBase } from "../node-base";
import { defineBlockKind } from "../node-kind";

/** Most turns an agent node may take unless its builder says otherwise. */
export const DEFAULT_AGENT_MAX_TURNS = 20;

/** Where an agent's model is served. `openai_compatible` covers Ollama, vLLM, LM Studio and similar servers. */
export const AgentProviderSchema = z
  .enum(["openai", "anthropic", "openai_compatible"])
  .describe("Who serves the model: OpenAI, Anthropic, or any OpenAI-compatible server (Ollama, vLLM, LM Studio).");
export type AgentProvider = z.infer<typeof AgentProviderSchema>;

/**
 * A model that works on a task with the tools attached to it on the canvas
 * (edges from tool nodes into this node). Its answer is the node's output.
 * `provider` and `model` are checked by validation, not here, so a half-built
 * agent can be saved and shows its problems on the fields.
 */
export const AgentNodeSchema = z.object({
  ...nodeBase,
  ...failureHandling,
  ...approvalPolicy,
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
export type AgentNode = z.infer<typeof AgentNodeSchema>;

export const agentKind = defineBlockKind(AgentNodeSchema, {
  title: "Agent",
  icon: "bot",
  palette: { help: "A model that calls the tools you connect into it." },
  card: {
    content: (node) => ({ subtitle: node.model ? `Agent · ${node.model}` : "Agent · choose a model" }),
    sameContent: (before, after) => before.model === after.model,
  },
});
