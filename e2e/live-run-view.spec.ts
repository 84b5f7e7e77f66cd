import { writeFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { oneStepWorkflow } from "./fixtures/approvals";
import { expect, test } from "./fixtures/test";
import { startScriptedOpenAIServer, type ScriptedOpenAIServer } from "../tests/support/scripted-openai-server";
import { createWorkflow, readWorkspaceFile, snap, uniqueName, whenHydrated, workspace } from "./fixtures/studio";

/**
 * The run view watched while the run happens, not after: an agent streaming
 * its answer (held half-way by the scripted model), its write waiting for a
 * person, ten tool steps at once, and a run cancelled from the page. Each
 * time the page must show every event once, as it comes, with one event
 * stream (a handful at most), and follow the run to its end without a reload.
 */

let model: ScriptedOpenAIServer;

test.beforeAll(async () => {
  model = await startScriptedOpenAIServer();
});
test.afterAll(async () => {
  await model?.close();
});

/** Counts the page's requests for the run's event stream. */
function countEventStreams(page: Page, runId: string): () => number {
  let count = 0;
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === `/api/runs/${runId}/events`) count += 1;
  });
  return () => count;
}

async function startRun(request: import("@playwright/test").APIRequestContext, workflowId: string, inputs: Record<string, unknown> = {}): Promise<string> {
  const response = await request.post(`/api/workflows/${workflowId}/runs`, { data: { inputs } });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { run: { id: string } }).run.id;
}

test("an agent's streamed text, its tool call and its approval appear live, once, and the page follows the run to its end", async ({ page, request }, testInfo) => {
  const name = uniqueName("Live agent", testInfo);
  const fileName = `live-${testInfo.testId.slice(0, 8)}.txt`;
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  model.script(
    { text: "Reading the folder first, then I will write the note.", holdAfterText: held, toolCalls: [{ name: "write_file", arguments: { path: fileName, content: "Live note." } }] },
    { text: "Done: the note is written." },
  );
  const id = await createWorkflow(request, {
    name,
    nodes: [
      { id: "input", kind: "input", position: { x: 0, y: 0 }, fields: [] },
      { id: "write", kind: "tool", position: { x: 300, y: 220 }, tool: "write_file", settings: { root: workspace() } },
      { id: "agent", kind: "agent", label: "Note writer", position: { x: 300, y: 0 }, provider: "openai_compatible", model: "scripted-model", baseUrl: model.baseUrl, task: "Write a note." },
      { id: "output", kind: "output", position: { x: 600, y: 0 }, value: "{{ nodes.agent.output }}" },
    ],
    edges: [
      { id: "input-agent", source: "input", target: "agent" },
      { id: "write-agent", source: "write", target: "agent" },
      { id: "agent-output", source: "agent", target: "output" },
    ],
  });
  const runId = await startRun(request, id);
  const streams = countEventStreams(page, runId);
  await page.goto(`/runs/${runId}`);
  const heading = page.getByRole("heading", { level: 1, name });

  // While the model is still answering: its words are in the agent's panel, the tool it may call reads "attached".
  // A choice made before React hydrates the picker is put back to the server's "The whole run".
  await whenHydrated(page.getByLabel("Show node"));
  await page.getByLabel("Show node").selectOption("agent");
  const text = page.getByLabel("The agent's text");
  await expect(text).toContainText("Reading the folder first, then I will write the note.");
  await expect(heading).toContainText("running");
  await expect(page.getByText("· live")).toBeVisible();
  await expect(page.getByRole("group", { name: /^Write a File, tool, attached$/ })).toBeVisible();
  await snap(page, testInfo, "live: the agent's text while it streams");

  // The model finishes its turn: the write waits for a person, and the card appears on this page, no reload.
  release();
  const approve = page.getByRole("button", { name: "Approve once" });
  await expect(approve).toBeVisible();
  await expect(heading).toContainText("waiting for you");
  // A screen reader hears it too: the polite status region says what changed.
  await expect(page.getByTestId("run-announcement")).toHaveText("Run waiting for you. 1 approval waits for you.");
  expect(readWorkspaceFile(fileName)).toBeNull();
  await snap(page, testInfo, "live: the approval card, as it opened");
  await approve.click();

  await expect(heading).toContainText("succeeded");
  await expect(page.getByTestId("run-announcement")).toHaveText("Run succeeded.");
  await expect(page.getByText("· live")).toHaveCount(0);
  expect(readWorkspaceFile(fileName)).toBe("Live note.");
  await page.getByLabel("Show node").selectOption("agent");
  await expect(text).toContainText("Done: the note is written.");
  const shown = (await text.textContent()) ?? "";
  expect(shown.split("Reading the folder first").length - 1).toBe(1);
  await expect(page.getByRole("list", { name: "Tool calls" })).toContainText(fileName);
  // The timeline tells the story in sentences; streamed text is not a row of it.
  await expect(page.getByRole("region", { name: "Timeline" })).not.toContainText("node-text-delta");
  await expect(page.getByRole("region", { name: "Timeline" })).not.toContainText("Reading the folder first");
  await snap(page, testInfo, "live: the run finished, followed without a reload");
  expect(streams()).toBeGreaterThanOrEqual(1);
  expect(streams()).toBeLessThanOrEqual(3);
});

test("ten tool steps at once and a write after them: every step shows as it finishes, approved from the run view", async ({ page, request }, testInfo) => {
  const name = uniqueName("Live ten", testInfo);
  const fileName = `ten-${testInfo.testId.slice(0, 8)}.txt`;
  const lists = Array.from({ length: 10 }, (_, index) => ({
    id: `list${index}`,
    kind: "tool" as const,
    position: { x: 300, y: index * 90 },
    tool: "list_dir",
    settings: { root: workspace() },
    arguments: { path: "." },
  }));
  const id = await createWorkflow(request, {
    name,
    nodes: [
      { id: "input", kind: "input", position: { x: 0, y: 400 }, fields: [] },
      ...lists,
      { id: "write", kind: "tool", position: { x: 600, y: 400 }, tool: "write_file", settings: { root: workspace() }, arguments: { path: fileName, content: "after ten" } },
      { id: "output", kind: "output", position: { x: 900, y: 400 }, value: "{{ nodes.write.output }}" },
    ],
    edges: [
      ...lists.map((list) => ({ id: `input-${list.id}`, source: "input", target: list.id })),
      ...lists.map((list) => ({ id: `${list.id}-write`, source: list.id, target: "write" })),
      { id: "write-output", source: "write", target: "output" },
    ],
  });
  const runId = await startRun(request, id);
  const streams = countEventStreams(page, runId);
  await page.goto(`/runs/${runId}`);
  const approve = page.getByRole("button", { name: "Approve once" });
  await expect(approve).toBeVisible();
  await expect(page.getByRole("group", { name: /^List a Directory.*, succeeded$/ })).toHaveCount(lists.length);
  // A step card describes what the keyboard does here (choose it to see its result), not React Flow's "move" and "delete".
  await expect(page.getByRole("group", { name: /^List a Directory/ }).first()).toHaveAccessibleDescription(/Press Enter or Space to see this step's result/);
  await approve.click();
  await expect(page.getByRole("heading", { level: 1, name })).toContainText("succeeded");
  expect(readWorkspaceFile(fileName)).toBe("after ten");
  expect(streams()).toBeLessThanOrEqual(3);
});

test("approved, a run's heading says running at once, while the approved command is still going", async ({ page, request }, testInfo) => {
  const name = uniqueName("Live resume", testInfo);
  // The command goes on until the test lets it end, so the page is seen between the decision and the step's next event.
  const release = `release-${testInfo.testId.slice(0, 8)}-${Date.now().toString(36)}`;
  const id = await createWorkflow(
    request,
    oneStepWorkflow(name, { tool: "run_command", operation: "run", label: "Hold until released", arguments: { command: `while [ ! -e ${release} ]; do sleep 0.2; done; echo released` } }),
  );
  const runId = await startRun(request, id);
  try {
    await page.goto(`/runs/${runId}`);
    const heading = page.getByRole("heading", { level: 1, name });
    await expect(heading).toContainText("waiting for you");
    // A command is approved as it is ("Approve"), with no "once" or "always".
    await page.getByRole("button", { name: /^Approve/ }).click();
    // The stream has no run-resumed after approval-decided: the page must not keep saying it waits until the step ends.
    await expect(heading).toContainText("running");
    await expect(heading).not.toContainText("waiting for you");
    await expect(page.getByRole("group", { name: "Hold until released, Run a Shell Command tool, running" })).toBeVisible();
    // The step's progress line, with its one "…" (the spinner added a second after the tool's own).
    await expect(page.getByRole("status").filter({ hasText: "Running `while" })).toHaveText(/released`…$/);
    await snap(page, testInfo, "approved: running while the command goes on");
  } finally {
    writeFileSync(path.join(workspace(), release), "");
  }
  await expect(page.getByRole("heading", { level: 1, name })).toContainText("succeeded");
});

test("a run cancelled from its page ends there, and its stream with it", async ({ page, request }, testInfo) => {
  const name = uniqueName("Live cancel", testInfo);
  const id = await createWorkflow(request, {
    name,
    nodes: [
      { id: "input", kind: "input", position: { x: 0, y: 0 }, fields: [] },
      { id: "write", kind: "tool", position: { x: 300, y: 0 }, tool: "write_file", settings: { root: workspace() }, arguments: { path: "never.txt", content: "no" } },
    ],
    edges: [{ id: "input-write", source: "input", target: "write" }],
  });
  const runId = await startRun(request, id);
  const streams = countEventStreams(page, runId);
  await page.goto(`/runs/${runId}`);
  await expect(page.getByRole("button", { name: "Approve once" })).toBeVisible();
  await page.getByRole("button", { name: `Cancel the run of ${name}` }).click();
  await page.getByRole("dialog", { name: "Cancel this run?" }).getByRole("button", { name: "Cancel run" }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toContainText("cancelled");
  await expect(page.getByRole("button", { name: "Approve once" })).toHaveCount(0);
  await expect(page.getByText("· live")).toHaveCount(0);
  expect(readWorkspaceFile("never.txt")).toBeNull();
  expect(streams()).toBeLessThanOrEqual(3);
});
