import { expect, test } from "./fixtures/test";
import { pendingApprovalIds, runStatus, startRun } from "./fixtures/approvals";
import { createWorkflow, uniqueName, workspace } from "./fixtures/studio";

/**
 * A person deletes a run from its page: while it waits for an approval the
 * Delete button is disabled and says why; once cancelled, Delete asks in a
 * dialog naming the run, and after deleting the page goes to the runs list,
 * where the run is no longer listed and its address answers "not found".
 */

test("a run is deleted from its page once it no longer goes on, after a confirmation naming it", async ({ page, request }, testInfo) => {
  const name = uniqueName("Run to delete", testInfo);
  const id = await createWorkflow(request, {
    name,
    mode: "default",
    nodes: [
      { id: "input", kind: "input", position: { x: 0, y: 0 }, fields: [] },
      { id: "write", kind: "tool", label: "Write a note", position: { x: 300, y: 0 }, tool: "write_file", settings: { root: workspace() }, arguments: { path: "deleted-run.txt", content: "x" } },
      { id: "output", kind: "output", position: { x: 600, y: 0 }, value: "done" },
    ],
    edges: [
      { id: "input-write", source: "input", target: "write" },
      { id: "write-output", source: "write", target: "output" },
    ],
  });
  const runId = await startRun(request, id);
  await pendingApprovalIds(request, runId);

  await page.goto(`/runs/${runId}`);
  const remove = page.getByRole("button", { name: new RegExp(`^Delete the run of ${name}`) });
  await expect(remove).toBeDisabled();
  await expect(page.getByTestId("delete-run-refusal")).toHaveText("It is waiting for input: cancel it first, then delete it.");

  await page.getByRole("button", { name: `Cancel the run of ${name}` }).click();
  await page.getByRole("button", { name: "Cancel run" }).click();
  await expect.poll(() => runStatus(request, runId)).toBe("cancelled");
  await expect(remove).toBeEnabled();

  await remove.click();
  const dialog = page.getByRole("dialog", { name: `Delete the run of “${name}”?` });
  await expect(dialog).toContainText(runId);
  await dialog.getByRole("button", { name: "Delete run" }).click();

  await expect(page).toHaveURL(/\/runs$/);
  await expect(page.getByRole("link", { name: `Open the run of ${name}`, exact: false })).toHaveCount(0);
  expect((await request.get(`/api/runs/${runId}`)).status()).toBe(404);
});

test("Settings → Data retention names the field that is wrong, inline, and shows the database's size", async ({ page }) => {
  await page.goto("/settings/retention");
  await expect(page.getByRole("heading", { level: 1, name: "Data retention" })).toBeVisible();
  await expect(page.getByTestId("retention-figures")).toContainText("Database size");
  await expect(page.getByTestId("retention-would-remove")).toHaveText("0 runs");

  const form = page.getByRole("form", { name: "Save retention" });
  await form.getByLabel("Keep runs for (days)").fill("30");
  await form.getByLabel("Keep failed runs at least (days)").fill("7");
  await form.getByRole("button", { name: "Save retention" }).click();
  // Checked in the browser with the API's schema: nothing is saved (other specs' runs must not be pruned), and the message names its field.
  await expect(form.getByLabel("Keep failed runs at least (days)")).toHaveAttribute("aria-invalid", "true");
  await expect(form.getByRole("alert")).toContainText("keepFailedDays: must be at least keepDays (30)");
  await form.getByLabel("Keep runs for (days)").fill("ten");
  await form.getByLabel("Keep runs for (days)").blur();
  await expect(form.getByRole("alert").first()).toContainText("keepDays:");
});
