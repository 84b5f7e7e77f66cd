import { lookUpSecret, parseSecretReference } from "@/lib/tools";
import { AgentStepFailure, runAgentStep } from "@/lib/workflow/agent/agent-step";
import { AGENT_CONTROL_TOOLS } from "@/lib/workflow/agent/agent-tools";
import { RunCancelled, StepFailure } from "@/lib/workflow/step-errors";
import type { NodeExecutionContext, NodeKindServer, NodeValidationContext, StepResult } from "../node-kind-server";
import type { AgentNode } from "./definition";

// The agent's runtime (the model loop, its tools, checkpoints, models) stays in
// lib/workflow/agent/: it is a library of its own, free of the engine; this
// module wires one node to it.

export const agentServer: NodeKindServer<AgentNode> = {
  validate: checkAgentNode,
  execute: runAgentNode,
};

/**
 * A model and (for providers that need one) a stored API key, a task, turns
 * within the guardrail, and no attached tool that every agent has already.
 */
async function checkAgentNode(node: AgentNode, context: NodeValidationContext): Promise<void> {
  const { definition, graph, problems, requirements, checkTemplates } = context;
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
      const found = await lookUpSecret(context.secrets, reference);
      const problem = found.value === undefined ? found.problem : found.value.trim() === "" ? "is empty" : "";
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

async function runAgentNode(node: AgentNode, context: NodeExecutionContext): Promise<StepResult> {
  const attached = context.attachedTools();
  try {
    return await runAgentStep(node, attached, {
      runId: context.runId,
      workflowId: context.workflowId,
      store: context.store,
      pool: context.pool(),
      secrets: context.secrets,
      workingDirectory: context.workingDirectory,
      mode: context.mode,
      guardrails: context.guardrails,
      grants: context.grants,
      persistGrant: context.persistGrant,
      lock: context.lock,
      signal: context.signal,
      scope: context.scope,
      waitFor: context.waitFor,
      emit: context.emit,
      ...(context.agentModel ? { modelFactory: context.agentModel } : {}),
    });
  } catch (error) {
    if (context.cancelled()) throw new RunCancelled();
    if (error instanceof AgentStepFailure) {
      throw new StepFailure(error.message, error.input, error.retryable ? { kind: "unavailable" } : {});
    }
    throw error;
  }
}
