import { readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures/test";
import { canvasCard, FIXTURES, snap, uniqueName, whenHydrated } from "./fixtures/studio";

/** The workflow list: create, rename, duplicate, export, import and delete, each as a person does it. */

function workflowLink(page: Page, name: string) {
  return page.getByRole("table").getByRole("link", { name, exact: true });
}

function statusMessage(page: Page, text: string) {
  return page.getByRole("status").filter({ hasText: text });
}

test("create, rename, duplicate, export, import and delete workflows from the list", async ({ page }, testInfo) => {
  const original = uniqueName("Weekly digest", testInfo);
  const renamed = `${original} renamed`;

  // Create: a name, then straight into the editor.
  await page.goto("/workflows");
  await page.getByRole("button", { name: "New workflow", exact: true }).click();
  const create = page.getByRole("dialog", { name: "New workflow" });
  await create.getByRole("textbox", { name: "Name", exact: true }).fill(original);
  await create.getByRole("textbox", { name: "Description", exact: true }).fill("Collects the week's notes.");
  await create.getByRole("button", { name: "Create and open" }).click();
  await expect(page).toHaveURL(/\/workflows\/[^/]+$/);
  await expect(page.getByRole("heading", { level: 1, name: original })).toBeVisible();
  await expect(canvasCard(page.getByRole("application", { name: "Workflow canvas" }), "Run inputs")).toBeVisible();

  // Rename: a new version with the new name.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Workflows" }).click();
  await expect(workflowLink(page, original)).toBeVisible();
  await page.getByRole("button", { name: `Rename ${original}`, exact: true }).click();
  const rename = page.getByRole("dialog", { name: "Rename workflow" });
  const nameField = rename.getByRole("textbox", { name: "Name", exact: true });
  await expect(nameField).toHaveValue(original);
  await nameField.fill(renamed);
  await rename.getByRole("button", { name: "Rename" }).click();
  await expect(statusMessage(page, `Renamed “${original}” to “${renamed}” (version 2).`)).toBeVisible();
  await expect(workflowLink(page, renamed)).toBeVisible();
  await expect(workflowLink(page, original)).toHaveCount(0);

  // Duplicate: a copy beside it.
  await page.getByRole("button", { name: `Duplicate ${renamed}`, exact: true }).click();
  await expect(statusMessage(page, `Duplicated “${renamed}” as “${renamed} (copy)”.`)).toBeVisible();
  await expect(workflowLink(page, `${renamed} (copy)`)).toBeVisible();

  // Export: a JSON download holding the definition.
  const downloading = page.waitForEvent("download");
  await page.getByRole("button", { name: `Export ${renamed}`, exact: true }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`${renamed}.json`);
  const exported = JSON.parse(readFileSync(await download.path(), "utf8")) as { name: string; description: string; nodes: { kind: string }[] };
  expect(exported.name).toBe(renamed);
  expect(exported.description).toBe("Collects the week's notes.");
  expect(exported.nodes.map((node) => node.kind).sort()).toEqual(["input", "output"]);

  // Import: the fixture file, through the file picker.
  const fixture = path.join(FIXTURES, "csv-report.workflow.json");
  const importedName = (JSON.parse(readFileSync(fixture, "utf8")) as { name: string }).name;
  await whenHydrated(page.getByLabel("Import JSON"));
  await page.getByLabel("Import JSON").setInputFiles(fixture);
  await expect(statusMessage(page, `Imported “${importedName}”.`)).toBeVisible();
  await expect(workflowLink(page, importedName)).toBeVisible();
  await snap(page, testInfo, "list after rename, duplicate and import");

  // Open the import: its nodes are there, by title.
  await workflowLink(page, importedName).click();
  const canvas = page.getByRole("application", { name: "Workflow canvas" });
  await expect(canvasCard(canvas, "Read the CSV")).toBeVisible();
  await expect(canvasCard(canvas, "Output")).toBeVisible();
  await page.goBack();

  // Delete: asked first, then gone.
  await page.getByRole("button", { name: `Delete ${importedName}`, exact: true }).click();
  const confirm = page.getByRole("dialog", { name: `Delete “${importedName}”?` });
  await confirm.getByRole("button", { name: "Delete workflow" }).click();
  await expect(statusMessage(page, `Deleted “${importedName}”.`)).toBeVisible();
  await expect(workflowLink(page, importedName)).toHaveCount(0);
  await expect(workflowLink(page, renamed)).toBeVisible();
  await snap(page, testInfo, "list after deleting the import");
});
