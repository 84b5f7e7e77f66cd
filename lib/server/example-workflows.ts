import { mkdirSync, writeFileSync, existsSync } from "node:fs";
import path from "node:path";
import { createWorkflow, dataFolder, type StudioDatabase } from "@/lib/persistence";
import type { WorkflowDefinitionInput } from "@/lib/workflow/definition";

/** Set once the examples were offered, so deleting them does not bring them back. */
export const EXAMPLES_SEEDED_KEY = "examples.seeded";

/**
 * An agent that looks around a folder and writes a summary, through the same
 * gates as any step: listing and reading run freely, the write waits in the
 * inbox. It points at a local Ollama; pick another provider in its inspector.
 */
export function exampleAgentWorkflow(workspace: string): WorkflowDefinitionInput {
  return {
    name: "Example: summarise a folder with an agent",
    description:
      "An agent node with three tools attached (list, read, write). Configure its model in the inspector (see README → Connecting a model), then run it; the write waits for your approval in the inbox.",
    mode: "default",
    nodes: [
      {
        id: "in",
        kind: "input",
        position: { x: 0, y: 120 },
        fields: [{ name: "request", type: "text", label: "What should the agent do?", default: "Summarise what is in this folder in summary.md." }],
      },
      { id: "list", kind: "tool", tool: "list_dir", label: "List the folder", position: { x: 260, y: 0 }, settings: { root: workspace } },
      { id: "read", kind: "tool", tool: "read_file", label: "Read a file", position: { x: 260, y: 260 }, settings: { root: workspace } },
      { id: "write", kind: "tool", tool: "write_file", label: "Write the summary", position: { x: 260, y: 380 }, settings: { root: workspace } },
      {
        id: "agent",
        kind: "agent",
        label: "Folder assistant",
        position: { x: 520, y: 120 },
        provider: "openai_compatible",
        model: "llama3.1",
        baseUrl: "http://127.0.0.1:11434/v1",
        systemPrompt: "You are a careful assistant working in one folder. Look before you write, keep answers short, and call finish with a one-paragraph answer when you are done.",
        task: "{{ inputs.request }}",
        maxTurns: 20,
      },
      { id: "out", kind: "output", label: "Answer", position: { x: 800, y: 120 }, value: "{{ nodes.agent.output }}" },
    ],
    edges: [
      { id: "in-agent", source: "in", target: "agent" },
      { id: "list-agent", source: "list", target: "agent" },
      { id: "read-agent", source: "read", target: "agent" },
      { id: "write-agent", source: "write", target: "agent" },
      { id: "agent-out", source: "agent", target: "out" },
    ],
  };
}

/**
 * Creates the example workflows on a first start (no workflows yet), once:
 * a Meta row remembers it, so a person who deletes them does not see them again.
 */
export async function seedExampleWorkflows(database: StudioDatabase, folder: string = dataFolder()): Promise<boolean> {
  if (await database.meta.findUnique({ where: { key: EXAMPLES_SEEDED_KEY } })) return false;
  const empty = (await database.workflow.count()) === 0;
  if (empty) {
    const workspace = path.join(folder, "example-workspace");
    mkdirSync(workspace, { recursive: true });
    const readme = path.join(workspace, "README.md");
    if (!existsSync(readme)) {
      writeFileSync(readme, "# Example workspace\n\nThe example agent works in this folder. Put a few files here and ask it to summarise them.\n");
    }
    await createWorkflow(exampleAgentWorkflow(workspace), database);
  }
  await database.meta.upsert({
    where: { key: EXAMPLES_SEEDED_KEY },
    create: { key: EXAMPLES_SEEDED_KEY, value: new Date().toISOString() },
    update: {},
  });
  return empty;
}
