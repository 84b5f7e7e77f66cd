import { expect, test } from "./fixtures/test";
import { createWorkflow, snap, uniqueName, whenHydrated, writeWorkflow } from "./fixtures/studio";

/**
 * A builder lets a workflow's traces carry its inputs and outputs (README,
 * Traces): off by default, ticked in the workflow's settings under Traces,
 * saved with the workflow, and taken back the same way.
 */
test("the workflow's settings let its traces carry inputs and outputs, off until ticked, and back off", async ({ page, request }, testInfo) => {
  const name = uniqueName("Traced content", testInfo);
  const workflowId = await createWorkflow(request, writeWorkflow(name, `traced-${testInfo.testId.slice(0, 6)}.txt`));
  const savedSetting = async () =>
    ((await (await request.get(`/api/workflows/${workflowId}`)).json()) as { workflow: { definition: { traceContent?: boolean } } }).workflow.definition.traceContent;

  await page.goto(`/workflows/${workflowId}`);
  const setting = page.getByRole("checkbox", { name: /^Inputs and outputs in traces/ });
  await whenHydrated(setting);
  await expect(page.getByRole("heading", { name: "Traces" })).toBeVisible();
  await expect(setting).not.toBeChecked();
  await setting.check();
  await snap(page, testInfo, "editor: inputs and outputs in traces");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible();
  expect(await savedSetting()).toBe(true);

  await page.reload();
  await whenHydrated(setting);
  await expect(setting).toBeChecked();
  await setting.uncheck();
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible();
  expect(await savedSetting()).toBeUndefined();
});
