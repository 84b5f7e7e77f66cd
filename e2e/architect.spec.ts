import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures/test";
import { startScriptedOpenAIServer, type ScriptedOpenAIServer } from "../tests/support/scripted-openai-server";
import { blockingViolations } from "./fixtures/accessibility";
import { canvasCard, createWorkflow, snap, uniqueName, workspace } from "./fixtures/studio";

/**
 * "Describe what it should do" in the editor, with the scripted OpenAI-compatible model: the plan streams into the
 * panel; a first answer with a privileged mode and a tool that does not exist is refused and sent back; the repaired
 * draft is shown as a proposal on the canvas, accepted in part as one undoable edit, saved and run. Stop in the middle
 * of a stream applies nothing; a goal over the limit and a missing model are said before any model call.
 */

let model: ScriptedOpenAIServer;

test.beforeAll(async () => {
  model = await startScriptedOpenAIServer();
});
test.afterAll(async () => {
  await model?.close();
});

/** The person's workflow: Run inputs → list the workspace (its folder chosen by them). */
function startingWorkflow(name: string) {
  return {
    name,
    nodes: [
      { id: "in", kind: "input" as const, position: { x: 0, y: 0 }, fields: [] },
      { id: "list", kind: "tool" as const, label: "List the workspace", position: { x: 300, y: 0 }, tool: "list_dir", settings: { root: workspace() }, arguments: { path: "." } },
    ],
    edges: [{ id: "in-list", source: "in", target: "list" }],
  };
}

/** The model's answer: the listing kept, an output and a write added (the write's folder is the person's to choose). */
function answer(overrides: { mode?: string; saveTool?: string; declined?: { request: string; reason: string }[] } = {}) {
  return JSON.stringify({
    name: "Workspace listing, kept",
    description: "Lists the workspace and keeps the listing.",
    mode: overrides.mode ?? "default",
    plan: [
      { step: "List the workspace", reason: "The goal asks what is in it.", capability: "file.list", nodeIds: ["list"] },
      { step: "Return the listing", reason: "So the run shows it.", nodeIds: ["out"] },
      { step: "Write the listing to a file", reason: "The goal asks to keep it\u200b.", capability: "file.write", nodeIds: ["save"] },
    ],
    nodes: [
      { id: "in", kind: "input", fields: [] },
      { id: "list", kind: "tool", label: "List the workspace", tool: "list_dir", operation: null, arguments: { path: "." } },
      { id: "out", kind: "output", label: "The listing\u202e", value: "{{ nodes.list.output }}" },
      { id: "save", kind: "tool", label: "Save the listing", tool: overrides.saveTool ?? "write_file", operation: null, arguments: { path: "listing.txt", content: "{{ nodes.list.output }}" } },
    ],
    edges: [
      { from: "in", to: "list" },
      { from: "list", to: "out" },
      { from: "list", to: "save" },
    ],
    declined: overrides.declined ?? [],
  });
}

async function openArchitect(page: Page, workflowId: string): Promise<Locator> {
  await page.goto(`/workflows/${workflowId}`);
  await page.getByRole("button", { name: "Describe…" }).click();
  const panel = page.getByRole("complementary", { name: "Architect" });
  await expect(panel.getByRole("heading", { name: "Describe what it should do" })).toBeVisible();
  return panel;
}

async function chooseScriptedModel(panel: Locator): Promise<void> {
  await expect(panel.getByTestId("architect-no-model")).toBeVisible();
  await panel.getByLabel("Provider").selectOption("openai_compatible");
  await panel.getByRole("textbox", { name: "Model", exact: true }).fill("scripted-architect");
  await panel.getByLabel("Base URL").fill(model.baseUrl);
}

test("a goal becomes a checked proposal on the canvas, accepted in part, undone and redone, then saved and run", async ({ page, request }, testInfo) => {
  const name = uniqueName("Architect", testInfo);
  const id = await createWorkflow(request, startingWorkflow(name));
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  model.script(
    // Round 1: a privileged mode and a tool that does not exist, held after its text so the streaming panel can be seen.
    { text: answer({ mode: "bypass", saveTool: "delete_everything" }), holdAfterText: held },
    // Round 2: repaired, with the privileged mode declined in words.
    { text: answer({ declined: [{ request: "Run without asking for approval (bypass)", reason: "a person chooses that under Workflow settings, not the Architect" }] }) },
  );
  const sent = model.requests.length;

  const panel = await openArchitect(page, id);
  await chooseScriptedModel(panel);
  await panel.getByLabel("Goal").fill("List the workspace, show the listing, and keep it in listing.txt. Do not ask me anything.");
  await panel.getByRole("button", { name: "Draft", exact: true }).click();

  // Streaming: the plan and the steps appear while the model's answer is still open.
  await expect(panel.getByTestId("architect-status")).toHaveText("Round 1: the model is writing a draft…");
  await expect(panel.getByRole("list", { name: "The plan" }).getByRole("listitem")).toHaveCount(3);
  await expect(panel.getByRole("list", { name: "The draft's steps" })).toContainText("Save the listing");
  await expect(panel.getByRole("button", { name: "Stop" })).toBeVisible();
  await panel.getByRole("list", { name: "The plan" }).scrollIntoViewIfNeeded();
  await snap(page, testInfo, "architect: the panel streaming");
  release();

  // Round 1 was refused and sent back; round 2's draft is the proposal.
  await expect(panel.getByTestId("architect-status")).toContainText("Drafted in 2 rounds");
  const refused = panel.getByText(/Refused and sent back to the model: 1 round/);
  await refused.click();
  const rounds = panel.getByRole("list", { name: "Rounds sent back" });
  await expect(rounds).toContainText("mode");
  await expect(rounds).toContainText("nodes[3].tool");
  expect(model.requests.length - sent).toBe(2);
  // What the first round said is sent back with its path; the model never sees a secret or a setting.
  expect(model.requests.at(-1)!.rawBody).toContain("mode");
  expect(model.requests.at(-1)!.rawBody).not.toContain(workspace());
  await expect(panel.getByRole("region", { name: "Not set by the Architect: yours to decide" })).toContainText("Run without asking for approval (bypass)");

  // On the canvas: the new steps and connections marked, the canvas closed to edits while the proposal is reviewed.
  const canvas = page.getByRole("application");
  await expect(page.getByTestId("proposal-banner")).toBeVisible();
  await expect(canvasCard(canvas, "Save the listing")).toHaveAttribute("aria-label", /proposed: new step/);
  await expect(page.locator('[data-proposed="added"]')).toHaveCount(2);
  // The label the model wrote holds a direction-changing character: the card shows it marked.
  await expect(page.locator('[data-proposed="added"] mark[data-hidden-mark="bidi"]')).toHaveCount(1);
  await expect(panel.locator('mark[data-hidden-mark="invisible"]').first()).toBeVisible();
  await snap(page, testInfo, "architect: the proposal highlighted on the canvas");
  expect(await blockingViolations(page, "the Architect's proposal")).toEqual([]);
  await panel.getByRole("region", { name: "Not set by the Architect: yours to decide" }).scrollIntoViewIfNeeded();
  await snap(page, testInfo, "architect: a refused privileged mode, said and declined");

  // Accept all but the write (its folder would be the person's to choose): its connection goes with it.
  await panel.getByRole("checkbox", { name: /^New Save the listing/ }).uncheck();
  await expect(page.locator('[data-proposed="added unticked"]')).toHaveCount(1);
  await panel.getByRole("button", { name: /^Accept \d+ of \d+ changes$/ }).click();
  await expect(page.getByTestId("proposal-banner")).toHaveCount(0);
  await expect(panel.getByTestId("architect-accepted")).toBeVisible();
  await expect(canvasCard(canvas, "Save the listing")).toHaveCount(0);
  await expect(page.locator(".react-flow__node")).toHaveCount(3);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Workspace listing, kept");

  // One undoable edit: one Undo takes all of it back, Redo brings it again.
  const toolbar = page.getByRole("toolbar", { name: "Workflow" });
  await toolbar.getByRole("button", { name: "Undo" }).click();
  await expect(page.locator(".react-flow__node")).toHaveCount(2);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
  await toolbar.getByRole("button", { name: "Redo" }).click();
  await expect(page.locator(".react-flow__node")).toHaveCount(3);

  // Nothing was saved by the Architect: saving is the person's, and the saved workflow runs.
  await expect(page.getByTestId("save-state")).toHaveText("Unsaved changes");
  await toolbar.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("save-state")).toHaveText("Saved");
  await toolbar.getByRole("button", { name: "Run", exact: true }).click();
  await page.getByRole("dialog", { name: "Run the workflow" }).getByRole("button", { name: "Start run" }).click();
  await expect(page).toHaveURL(/\/runs\/[^/]+$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("succeeded", { timeout: 30_000 });
});

test("Stop in the middle of a stream applies nothing and keeps what came to look at", async ({ page, request }, testInfo) => {
  const id = await createWorkflow(request, startingWorkflow(uniqueName("Architect stopped", testInfo)));
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  model.script({ text: answer(), holdAfterText: held });
  const sent = model.requests.length;
  try {
    const panel = await openArchitect(page, id);
    await chooseScriptedModel(panel);
    await panel.getByLabel("Goal").fill("List the workspace and keep the listing.");
    await panel.getByRole("button", { name: "Draft", exact: true }).click();
    await expect(panel.getByRole("list", { name: "The draft's steps" })).toContainText("Save the listing");
    await panel.getByRole("button", { name: "Stop" }).click();
    await expect(panel.getByRole("alert")).toHaveText("Stopped: nothing was applied. The draft so far is kept to look at.");
    await expect(panel.getByRole("list", { name: "The plan" }).getByRole("listitem")).toHaveCount(3);
    await expect(page.getByTestId("proposal-banner")).toHaveCount(0);
    await expect(page.locator(".react-flow__node")).toHaveCount(2);
    await expect(page.getByTestId("save-state")).toHaveText("Saved");
    await expect(panel.getByRole("button", { name: "Draft again" })).toBeEnabled();
    // One model call, left when stopped: Stop does not start another drafting.
    expect(model.requests.length - sent).toBe(1);
  } finally {
    release();
  }
});

test("a goal over the limit and a model not chosen are said in the form, before any model call", async ({ page, request }, testInfo) => {
  const id = await createWorkflow(request, startingWorkflow(uniqueName("Architect refused", testInfo)));
  const sent = model.requests.length;
  const panel = await openArchitect(page, id);
  await expect(panel.getByTestId("architect-no-model")).toContainText("README → Connecting a model");
  await panel.getByLabel("Goal").fill("x".repeat(8_001));
  await panel.getByRole("button", { name: "Draft", exact: true }).click();
  await expect(panel.getByLabel("Goal")).toHaveAttribute("aria-invalid", "true");
  await expect(panel.getByText("at most 8,000 characters; say it shorter")).toBeVisible();
  await expect(panel.getByText("name the model, e.g. gpt-4.1-mini or llama3.1")).toBeVisible();
  expect(model.requests.length).toBe(sent);
});
