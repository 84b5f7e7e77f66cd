import { expect, test } from "./fixtures/test";
import { createWorkflow, readWorkspaceFile, snap, uniqueName, writeWorkflow } from "./fixtures/studio";

/** Denied from the inbox with a reason, the write fails with that reason and nothing is written. */

test("deny a write from the inbox with a reason: the node fails with it and no file is written", async ({ page, request }, testInfo) => {
  const name = uniqueName("Deny me", testInfo);
  const fileName = `denied-${testInfo.testId.slice(0, 8)}.txt`;
  const reason = "Not in this folder, write it to the archive instead";
  const id = await createWorkflow(request, writeWorkflow(name, fileName));

  await page.goto(`/workflows/${id}`);
  await expect(page.getByText("Ready to run")).toBeVisible();
  await page.getByRole("button", { name: "Run", exact: true }).click();
  const runDialog = page.getByRole("dialog", { name: "Run the workflow" });
  await runDialog.getByRole("textbox", { name: "Message", exact: true }).fill("This should never reach the disk.");
  await runDialog.getByRole("button", { name: "Start run" }).click();
  await expect(page).toHaveURL(/\/runs\/[^/]+$/);
  const runUrl = page.url();
  await expect(page.getByRole("group", { name: "Write a File, tool, waiting for you" })).toBeVisible();

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: /^Inbox/ }).click();
  const approval = page.getByRole("article").filter({ hasText: name });
  await expect(approval.getByRole("group", { name: "Proposed change" })).toContainText(fileName);
  await approval.getByRole("button", { name: "Deny" }).click();
  await approval.getByRole("textbox", { name: "What should it do instead?" }).fill(reason);
  await snap(page, testInfo, "inbox: denying with a reason");
  await approval.getByRole("button", { name: "Deny" }).click();
  await expect(approval.getByRole("status")).toHaveText(/^Denied/);
  await expect(approval.getByRole("status")).toContainText(`Your reason was passed on: “${reason}”`);

  await page.goto(runUrl);
  await expect(page.getByRole("group", { name: "Write a File, tool, failed" })).toBeVisible();
  await expect(page.getByRole("group", { name: "Output, skipped" })).toBeVisible();
  await page.getByLabel("Show node").selectOption({ label: "Write a File — failed" });
  const details = page.getByRole("complementary", { name: "Node details" });
  await expect(details.getByRole("region", { name: "Error" })).toContainText(reason);
  await expect(page.getByRole("heading", { level: 1, name: name })).toContainText("failed");
  await snap(page, testInfo, "run view: the write failed with the reason");
  expect(readWorkspaceFile(fileName)).toBeNull();
});
