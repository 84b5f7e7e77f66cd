import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/** Workflow definitions the API tests run, built the way the editor would send them. */

const createdFolders: string[] = [];

/** Removes every folder `workFolder` made; each test file calls it in `afterAll`. */
export function removeWorkFolders(): void {
  for (const folder of createdFolders.splice(0)) rmSync(folder, { recursive: true, force: true });
}

/** A fresh folder for a step's `root` setting. */
export function workFolder(prefix = "studio-api-work-"): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), prefix));
  createdFolders.push(folder);
  return folder;
}

type Node = Record<string, unknown> & { id: string };

/** Edges that chain `ids` in order. */
export function chain(...ids: string[]): { id: string; source: string; target: string }[] {
  return ids.slice(1).map((target, index) => ({ id: `${ids[index]}-${target}`, source: ids[index]!, target }));
}

export function edge(source: string, target: string): { id: string; source: string; target: string } {
  return { id: `${source}-${target}`, source, target };
}

/**
 * input(text, file) -> write_file(file, text) -> output. In `default` mode the
 * write waits for a person's approval.
 */
export function writeFileWorkflow(root: string, options: { name?: string; mode?: string } = {}) {
  return {
    name: options.name ?? "Write a note",
    description: "Writes the given text to a file.",
    mode: options.mode ?? "default",
    nodes: [
      { id: "in", kind: "input", fields: [{ name: "text" }, { name: "file", required: false, default: "note.txt" }] },
      {
        id: "write",
        kind: "tool",
        label: "Write the note",
        tool: "write_file",
        settings: { root },
        arguments: { path: "{{ inputs.file }}", content: "{{ inputs.text }}" },
      },
      { id: "out", kind: "output", value: "wrote {{ inputs.file }}" },
    ] satisfies Node[],
    edges: chain("in", "write", "out"),
  };
}

/** A shell step (`run_command`, operation `run`) in `root`. */
export function shellNode(id: string, root: string, command: string, timeoutSeconds = 60): Node {
  return { id, kind: "tool", tool: "run_command", operation: "run", settings: { root, timeoutSeconds }, arguments: { command } };
}

/** Trusted-script settings: every step runs without asking. */
export const BYPASS = { mode: "bypass", guardrails: { shellPolicy: "open" } } as const;

/** Shell steps one after another, in bypass mode with an open shell policy. */
export function shellChainWorkflow(root: string, commands: string[], name = "Shell chain") {
  const nodes = commands.map((command, index) => shellNode(`step${index + 1}`, root, command));
  return { name, ...BYPASS, nodes, edges: chain(...nodes.map((node) => node.id)) };
}

/** `start` fanning out to `branches`, which join in `join`: branches are independent and may run at once. */
export function fanOutWorkflow(name: string, branches: Node[], extra: Record<string, unknown> = {}) {
  const nodes: Node[] = [{ id: "start", kind: "input", fields: [] }, ...branches, { id: "join", kind: "output", value: "done" }];
  return {
    name,
    ...extra,
    nodes,
    edges: branches.flatMap((branch) => [edge("start", branch.id), edge(branch.id, "join")]),
  };
}
