import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures/test";
import { canvasCard, createWorkflow, snap, uniqueName, workspace } from "./fixtures/studio";

/**
 * Builds Run inputs → Write a File → Output by dragging from the palette,
 * wires the cards handle to handle, configures the write through its
 * generated settings form, saves, reloads and finds it all again.
 */

function canvasOf(page: Page): Locator {
  return page.getByRole("application", { name: "Workflow canvas" });
}

function card(page: Page, title: string): Locator {
  return canvasCard(canvasOf(page), title);
}

test("build a three-node workflow by drag and drop, save it and find it unchanged after a reload", async ({ page, request }, testInfo) => {
  const name = uniqueName("Built by hand", testInfo);
  const id = await createWorkflow(request, { name, description: "", nodes: [], edges: [] });
  const folder = workspace();

  await page.goto(`/workflows/${id}`);
  const canvas = canvasOf(page);
  await expect(canvas).toBeVisible();
  await expect(page.getByText("Start with Run inputs")).toBeVisible();

  // Drag the three blocks from the palette onto the canvas, left to right.
  const palette = page.getByRole("navigation", { name: "Node palette" });
  // A drag Chromium let fall on a loaded machine (no drop came) is tried again; one that dropped is never repeated.
  const dropOnCanvas = async (item: Locator, title: string, targetPosition: { x: number; y: number }) => {
    await expect(async () => {
      if ((await card(page, title).count()) === 0) await item.dragTo(canvas, { targetPosition });
      await expect(card(page, title)).toBeVisible({ timeout: 5_000 });
    }).toPass();
  };
  await dropOnCanvas(palette.getByRole("button", { name: /^Run inputs/ }), "Run inputs", { x: 130, y: 200 });
  await dropOnCanvas(palette.getByRole("button", { name: "Write a File", exact: true }), "Write a File", { x: 400, y: 300 });
  await dropOnCanvas(palette.getByRole("button", { name: /^Output/ }), "Output", { x: 670, y: 200 });
  await expect(card(page, "Run inputs")).toHaveCount(1);
  // The palette knows a workflow has one Run inputs node at most.
  await expect(palette.getByRole("button", { name: /^Run inputs/ })).toBeDisabled();

  // Connect them: from a card's output dot to the next card's input dot.
  await page.getByTitle("Output of Run inputs", { exact: true }).dragTo(page.getByTitle("Input of Write a File", { exact: true }));
  await expect(canvas.getByRole("group", { name: /^Connection from Run inputs to Write a File$/ })).toBeAttached();
  await page.getByTitle("Output of Write a File", { exact: true }).dragTo(page.getByTitle("Input of Output", { exact: true }));
  await expect(canvas.getByRole("group", { name: /^Connection from Write a File to Output$/ })).toBeAttached();

  // Write a File: its settings come from the tool's settings schema, its inputs from its input schema.
  await card(page, "Write a File").click();
  const writeInspector = page.getByRole("region", { name: "Inspector: Write a File" });
  await expect(writeInspector.getByRole("heading", { name: "Settings" })).toBeVisible();
  await writeInspector.getByRole("textbox", { name: "Folder", exact: true }).fill(folder);
  await writeInspector.getByRole("textbox", { name: "Path", exact: true }).fill("notes/built.txt");
  await writeInspector.getByRole("textbox", { name: "Content", exact: true }).fill("Built in the browser.");

  // Run inputs: one field, named by the person.
  await card(page, "Run inputs").click();
  const inputInspector = page.getByRole("region", { name: "Inspector: Run inputs" });
  await inputInspector.getByRole("button", { name: "Add input" }).click();
  await inputInspector.getByRole("textbox", { name: "Name", exact: true }).fill("topic");
  await inputInspector.getByRole("textbox", { name: "Label", exact: true }).fill("Topic");
  await expect(card(page, "Run inputs")).toContainText("1 field");

  // Once the server's check finds nothing to fix, save.
  await expect(page.getByText("Ready to run")).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "Unsaved changes" })).toBeVisible();
  await snap(page, testInfo, "built, before saving");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible();
  await expect(page.getByText("v2", { exact: true })).toBeVisible();

  // After a reload, everything is as it was saved.
  await page.reload();
  await expect(card(page, "Run inputs")).toBeVisible();
  await expect(card(page, "Write a File")).toBeVisible();
  await expect(card(page, "Output")).toBeVisible();
  await expect(canvas.getByRole("group", { name: /^Connection from / })).toHaveCount(2);
  await expect(page.getByText("v2", { exact: true })).toBeVisible();

  await card(page, "Write a File").click();
  const reloadedWrite = page.getByRole("region", { name: "Inspector: Write a File" });
  await expect(reloadedWrite.getByRole("textbox", { name: "Folder", exact: true })).toHaveValue(folder);
  await expect(reloadedWrite.getByRole("textbox", { name: "Path", exact: true })).toHaveValue("notes/built.txt");
  await expect(reloadedWrite.getByRole("textbox", { name: "Content", exact: true })).toHaveValue("Built in the browser.");
  await snap(page, testInfo, "after reload: Write a File's settings");

  await card(page, "Run inputs").click();
  const reloadedInputs = page.getByRole("region", { name: "Inspector: Run inputs" });
  await expect(reloadedInputs.getByRole("textbox", { name: "Name", exact: true })).toHaveValue("topic");
  await expect(reloadedInputs.getByRole("textbox", { name: "Label", exact: true })).toHaveValue("Topic");
  await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible();
});
