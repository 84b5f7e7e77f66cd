import { mkdirSync } from "node:fs";
import path from "node:path";
import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures/test";
import { blockingViolations } from "./fixtures/accessibility";
import { decisionButton, plantFile, runStatus, startRun } from "./fixtures/approvals";
import { canvasCard, createWorkflow, readWorkspaceFile, snap, uniqueName, workspace } from "./fixtures/studio";

/**
 * Working step by step in the editor: a person runs one step and reads its
 * result in the inspector, pins it (edited: the pinned JSON is checked on its
 * field), and runs the next step from the pin: the pinned card is marked, the
 * step that writes asks in the inspector itself (and waits in the inbox), and
 * its result shows there. From a finished run's page, Copy to editor pins the
 * run's outputs (saying which pin it replaces) and opens the editor.
 */

/** Run inputs → Read the names (a file in the workspace) → Save the names (writes them to another file: asks) → Output. */
function readThenSave(name: string, folder: string) {
  return {
    name,
    mode: "default" as const,
    nodes: [
      { id: "input", kind: "input" as const, position: { x: 0, y: 100 }, fields: [] },
      { id: "read", kind: "tool" as const, label: "Read the names", position: { x: 300, y: 100 }, tool: "read_file", settings: { root: workspace() }, arguments: { path: `${folder}/names.txt` } },
      {
        id: "save",
        kind: "tool" as const,
        label: "Save the names",
        position: { x: 600, y: 100 },
        tool: "write_file",
        settings: { root: workspace() },
        arguments: { path: `${folder}/copy.txt`, content: "{{ nodes.read.output }}" },
      },
      { id: "output", kind: "output" as const, label: "Report", position: { x: 900, y: 100 }, value: "{{ nodes.save.output }}" },
    ],
    edges: [
      { id: "input-read", source: "input", target: "read" },
      { id: "read-save", source: "read", target: "save" },
      { id: "save-output", source: "save", target: "output" },
    ],
  };
}

function plantNames(testId: string): string {
  const folder = `step-debug-${testId.slice(0, 8)}-${Date.now().toString(36)}`;
  mkdirSync(path.join(workspace(), folder));
  plantFile(`${folder}/names.txt`, "Ada Lovelace\nGrace Hopper\n");
  return folder;
}

async function openEditor(page: Page, workflowId: string) {
  await page.goto(`/workflows/${workflowId}`);
  await expect(canvasCard(page, "Read the names")).toBeVisible();
}

async function pendingApprovalNodes(request: APIRequestContext): Promise<string[]> {
  const response = await request.get("/api/approvals?status=pending");
  return ((await response.json()) as { approvals: { nodeId: string; runId: string }[] }).approvals.map((approval) => `${approval.runId}:${approval.nodeId}`);
}

test("run one step and see its result; pin it; run the next step from the pin, approving it in the inspector", async ({ page, request }, testInfo) => {
  const folder = plantNames(testInfo.testId);
  const name = uniqueName("Names", testInfo);
  const id = await createWorkflow(request, readThenSave(name, folder));
  await openEditor(page, id);

  // Run this step: the read runs alone, and its result shows in the inspector.
  await canvasCard(page, "Read the names").click();
  const inspector = page.getByRole("region", { name: "Inspector: Read the names" });
  const testing = inspector.getByRole("region", { name: "Test this step" });
  await testing.getByRole("button", { name: "Run this step" }).click();
  const result = testing.getByRole("region", { name: "Test run result" });
  await expect(result).toContainText("Ada Lovelace");
  await expect(result.getByText("succeeded", { exact: true }).first()).toBeVisible();
  // The arguments it ran with, read from its run's record: the stream does not carry them, and the panel once said
  // "Not recorded for this step" here.
  await expect(result.getByRole("heading", { name: "Resolved arguments" })).toBeVisible();
  await expect(result.getByLabel("Resolved arguments")).toContainText(`${folder}/names.txt`);
  await expect(result).not.toContainText("Not recorded");
  await snap(page, testInfo, "one step run, its result in the inspector");

  // Pin it, then edit the pin: a bad value is named on its field, a good one is saved.
  await result.getByRole("button", { name: "Pin this output" }).click();
  await expect(canvasCard(page, "Read the names", "output pinned")).toBeVisible();
  await expect(canvasCard(page, "Read the names").getByTestId("pinned-mark")).toHaveText("Pinned");
  await testing.getByRole("button", { name: "Edit pinned JSON" }).click();
  const json = testing.getByRole("textbox", { name: "Pinned output (JSON)" });
  await json.fill('{ "content": 42 }');
  await testing.getByRole("button", { name: "Save pin" }).click();
  await expect(json).toHaveAccessibleDescription(/content: expected string, received number/);
  await json.fill('{ "content": "Katherine Johnson", "data": { "apiKey": "abc123" } }');
  await testing.getByRole("button", { name: "Save pin" }).click();
  await expect(json).toHaveAccessibleDescription(/data\.apiKey: is a field named like a credential/);
  await json.fill('{ "content": "Katherine Johnson" }');
  await testing.getByRole("button", { name: "Save pin" }).click();
  await expect(testing.getByTestId("pin-state")).toContainText("(typed JSON)");

  // The next step, from the pin: it asks, here in the inspector and in the inbox; the read does not run.
  await canvasCard(page, "Save the names").click();
  const saving = page.getByRole("region", { name: "Inspector: Save the names" }).getByRole("region", { name: "Test this step" });
  await expect(saving.getByRole("list", { name: "What Run this step uses" })).toContainText("Read the names: its pinned output");
  await saving.getByRole("button", { name: "Run this step" }).click();
  const saveResult = saving.getByRole("region", { name: "Test run result" });
  const approve = decisionButton(saveResult, "Approve once");
  await expect(approve).toBeVisible();
  await expect(saveResult).toContainText("Katherine Johnson");
  const runId = (await saveResult.getByRole("link", { name: /^Open run/ }).getAttribute("href"))!.split("/").pop()!;
  expect(await pendingApprovalNodes(request)).toContain(`${runId}:save`);
  expect(readWorkspaceFile(`${folder}/copy.txt`)).toBeNull();
  await snap(page, testInfo, "the next step from the pin, asking in the inspector");
  expect(await blockingViolations(page, "the editor with a test run waiting")).toEqual([]);
  await approve.click();
  await expect(saveResult.getByText("succeeded", { exact: true }).first()).toBeVisible();
  expect(readWorkspaceFile(`${folder}/copy.txt`)).toBe("Katherine Johnson");
  // The pinned card is still marked; the test run is a run, marked as a test in the runs list.
  await expect(canvasCard(page, "Read the names", "output pinned")).toBeVisible();
  await snap(page, testInfo, "the next step's result, the pinned card marked");
  const test = await request.get(`/api/runs/${runId}`);
  expect(((await test.json()) as { run: { trigger: unknown } }).run.trigger).toMatchObject({ test: true, testOf: { nodeId: "save", mode: "step" } });
  await page.goto("/runs");
  const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: name }) }).first();
  await expect(row.getByRole("cell").nth(3)).toContainText("test");
  // Its page says why the steps it left out did not run: not a branch not taken, nor a failure before them.
  await page.goto(`/runs/${runId}`);
  await expect(page.getByText("Not part of this test run").first()).toBeVisible();
  await expect(page.getByText(/its branch was not taken/)).toHaveCount(0);
});

test("Copy to editor pins a finished run's outputs, saying which pin it replaces, and opens the editor", async ({ page, request }, testInfo) => {
  const folder = plantNames(testInfo.testId);
  const name = uniqueName("Names copied", testInfo);
  const definition = readThenSave(name, folder);
  // Read only: the run finishes without anyone.
  const id = await createWorkflow(request, {
    ...definition,
    nodes: [...definition.nodes.slice(0, 2), { id: "output", kind: "output", label: "Report", position: { x: 600, y: 100 }, value: "{{ nodes.read.output }}" }],
    edges: [
      { id: "input-read", source: "input", target: "read" },
      { id: "read-output", source: "read", target: "output" },
    ],
  });
  const pinned = await request.put(`/api/workflows/${id}/pins/read`, { data: { output: { content: "an older pin" } } });
  expect(pinned.status(), await pinned.text()).toBe(200);
  const runId = await startRun(request, id);
  await expect.poll(() => runStatus(request, runId)).toBe("succeeded");

  await page.goto(`/runs/${runId}`);
  await page.getByRole("button", { name: "Copy to editor" }).click();
  const dialog = page.getByRole("dialog", { name: "Copy this run's outputs to the editor" });
  await expect(dialog.getByRole("list", { name: "Outputs to pin" })).toContainText("Read the names — replaces its pin (typed JSON)");
  await snap(page, testInfo, "copy to editor, what it replaces");
  await dialog.getByRole("button", { name: "Pin and replace 1" }).click();
  await expect(page).toHaveURL(new RegExp(`/workflows/${id}$`));
  await expect(canvasCard(page, "Read the names", "output pinned")).toBeVisible();
  await canvasCard(page, "Read the names").click();
  await expect(page.getByRole("region", { name: "Inspector: Read the names" }).getByTestId("pin-state")).toContainText(`Pinned from run #${runId.slice(-6)}`);
  await snap(page, testInfo, "the editor with the run's outputs pinned");

  // The card's menu runs the report alone, from the pinned read: its result shows in the inspector.
  await canvasCard(page, "Report").click({ button: "right" });
  const menu = page.getByRole("menu", { name: "Report: actions" });
  await expect(menu.getByRole("menuitem", { name: "Run this step" })).toBeFocused();
  await menu.getByRole("menuitem", { name: "Run this step" }).click();
  const result = page.getByRole("region", { name: "Inspector: Report" }).getByRole("region", { name: "Test run result" });
  await expect(result).toContainText("Grace Hopper");
  await expect(result.getByText("succeeded", { exact: true }).first()).toBeVisible();
});
