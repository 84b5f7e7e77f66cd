import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures/test";
import { createWorkflow, snap, uniqueName } from "./fixtures/studio";

/** A secret is stored, listed masked (its value nowhere in the page), checked by its tool, replaced and deleted. */

const NAME = "REPORTING_DB_URL";
const UNUSABLE_VALUE = "planted-not-a-connection-url-7f3a9c";
const USABLE_VALUE = "postgresql://reader:planted-pw-5b8e2d@127.0.0.1:5432/reports";

function rowOf(page: Page, name: string) {
  return page.getByRole("row").filter({ has: page.getByRole("rowheader", { name, exact: true }) });
}

test("create a secret for SQL Database, see it masked and checked, replace its value, limit it to a workflow, delete it", async ({ page, request }, testInfo) => {
  const reportName = uniqueName("Weekly report", testInfo);
  await createWorkflow(request, { name: reportName, nodes: [{ id: "in", kind: "input", position: { x: 0, y: 0 }, fields: [] }], edges: [] });
  // Reached as the help texts say, "Settings → Secrets": the header's Settings, then its Secrets tab.
  await page.goto("/workflows");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings", exact: true }).click();
  await expect(page).toHaveURL(/\/settings\/secrets$/);
  const settingsTabs = page.getByRole("navigation", { name: "Settings" });
  await expect(settingsTabs.getByRole("link")).toHaveText(["Secrets", "MCP", "People", "Security", "Data retention", "Model prices", "Account"]);
  await expect(settingsTabs.getByRole("link", { name: "Secrets" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings", exact: true })).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("heading", { level: 1, name: "Secrets" })).toBeVisible();

  await page.getByRole("button", { name: "New secret", exact: true }).click();
  const create = page.getByRole("dialog", { name: "New secret" });
  await create.getByRole("textbox", { name: "Name", exact: true }).fill(NAME);
  await create.getByRole("textbox", { name: "Value", exact: true }).fill(UNUSABLE_VALUE);
  await create.getByRole("textbox", { name: "Description", exact: true }).fill("Read-only user on the reporting database");
  await create.getByRole("combobox", { name: "Tool", exact: true }).selectOption({ label: "SQL Database" });
  // The tool's help on what to paste shows once it is chosen.
  await expect(create.getByText(/A connection URL for the database/)).toBeVisible();
  await create.getByRole("button", { name: "Save secret" }).click();
  await expect(create).toBeHidden();

  // Listed, masked, tied to its tool, and flagged: set is not the same as usable.
  const row = rowOf(page, NAME);
  await expect(row).toBeVisible();
  await expect(row.getByRole("cell").nth(0)).toHaveText(/hidden/);
  await expect(row).toContainText("SQL Database");
  await expect(page.getByRole("status").filter({ hasText: /^Saved, but SQL Database says this value/ })).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: /Warning: Saved, but SQL Database says this value/ })).toBeVisible();
  expect(await page.content()).not.toContain(UNUSABLE_VALUE);
  await snap(page, testInfo, "secret saved, masked, with the tool's warning");

  // Still masked after a reload: the value never comes back from the server.
  await page.reload();
  await expect(rowOf(page, NAME)).toBeVisible();
  expect(await page.content()).not.toContain(UNUSABLE_VALUE);

  // Replace the value with one the tool accepts: the warning goes.
  await page.getByRole("button", { name: `Replace value of ${NAME}` }).click();
  const replace = page.getByRole("dialog", { name: `Replace the value of ${NAME}` });
  await replace.getByRole("textbox", { name: "New value", exact: true }).fill(USABLE_VALUE);
  await replace.getByRole("button", { name: "Replace value" }).click();
  await expect(replace).toBeHidden();
  await expect(page.getByRole("status").filter({ hasText: `Replaced the value of ${NAME}.` })).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: "Warning:" })).toHaveCount(0);
  expect(await page.content()).not.toContain(USABLE_VALUE);
  expect(await page.content()).not.toContain("planted-pw-5b8e2d");
  await snap(page, testInfo, "value replaced, no warning");

  // Limit it to one workflow: the list says which; other workflows' steps are refused it.
  await page.getByRole("button", { name: `Edit ${NAME}` }).click();
  const edit = page.getByRole("dialog", { name: `Edit ${NAME}` });
  await edit.getByRole("radio", { name: "Only the workflows chosen below" }).check();
  await edit.getByRole("button", { name: "Save changes" }).click();
  // None chosen is not a choice: the field says so and nothing is saved.
  await expect(edit.getByRole("group", { name: "Usable by" })).toContainText("Choose at least one workflow");
  // Other specs made many workflows before this one: past a few the list is searched, as a person with many would.
  const find = edit.getByRole("searchbox", { name: "Find a workflow" });
  if (await find.isVisible()) await find.fill(reportName);
  await edit.getByRole("checkbox", { name: reportName }).check();
  await snap(page, testInfo, "secret limited to one workflow");
  await edit.getByRole("button", { name: "Save changes" }).click();
  await expect(edit).toBeHidden();
  await expect(rowOf(page, NAME).getByTestId("secret-usable-by")).toHaveText(`only “${reportName}”`);

  // Delete it, after saying what stops working.
  await page.getByRole("button", { name: `Delete ${NAME}` }).click();
  const confirm = page.getByRole("dialog", { name: `Delete ${NAME}?` });
  await expect(confirm).toContainText(`\${${NAME}}`);
  await confirm.getByRole("button", { name: "Delete secret" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Deleted ${NAME}.` })).toBeVisible();
  await expect(rowOf(page, NAME)).toHaveCount(0);
});
