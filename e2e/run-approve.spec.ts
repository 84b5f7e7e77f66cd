import { expect, test } from "./fixtures/test";
import { createWorkflow, readWorkspaceFile, snap, uniqueName, writeWorkflow } from "./fixtures/studio";

/** A run that wants to write a file waits for a person; approved from the inbox, it writes the file and succeeds. */

test("run from the editor, approve the write in the inbox, and find the file written", async ({ page, request }, testInfo) => {
  const name = uniqueName("Approve me", testInfo);
  const fileName = `approved-${testInfo.testId.slice(0, 8)}.txt`;
  const message = "Hello from the browser, approved.";
  const id = await createWorkflow(request, writeWorkflow(name, fileName));
  // What earlier specs left waiting for this person counts in the badge too: this run adds one, and its decision takes it away.
  const waitingBefore = ((await (await request.get("/api/approvals?status=pending&for=me&limit=200")).json()) as { approvals: unknown[] }).approvals.length;
  const badge = (count: number) => (count === 0 ? "Inbox" : new RegExp(`^Inbox\\s*${count} waiting$`));

  // Run it from the editor: the inputs form is generated from the Run inputs node.
  await page.goto(`/workflows/${id}`);
  await expect(page.getByText("Ready to run")).toBeVisible();
  await page.getByRole("button", { name: "Run", exact: true }).click();
  const runDialog = page.getByRole("dialog", { name: "Run the workflow" });
  await runDialog.getByRole("textbox", { name: "Message", exact: true }).fill(message);
  await runDialog.getByRole("button", { name: "Start run" }).click();

  // The run view: the write waits for a decision.
  await expect(page).toHaveURL(/\/runs\/[^/]+$/);
  const runUrl = page.url();
  await expect(page.getByRole("heading", { level: 1, name: name })).toBeVisible();
  await expect(page.getByRole("group", { name: "Write a File, tool, waiting for you" })).toBeVisible();
  // Its connections are named by the cards they join, never by node ids.
  await expect(page.getByRole("img", { name: "Connection from Run inputs to Write a File" })).toBeAttached();
  await expect(page.getByRole("article", { name: "Write a File wants to change a file" })).toBeVisible();
  await snap(page, testInfo, "run view: the write waits for you");

  // The inbox: counted in the navigation, with the diff of the new file.
  const inboxLink = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: /^Inbox/ });
  await expect(inboxLink).toHaveAccessibleName(badge(waitingBefore + 1));
  await inboxLink.click();
  await expect(page).toHaveURL(/\/inbox$/);
  const approval = page.getByRole("article").filter({ hasText: name });
  await expect(approval).toHaveCount(1);
  await expect(approval.getByRole("heading", { name: "Write a File wants to change a file" })).toBeVisible();
  const diff = approval.getByRole("group", { name: "Proposed change" });
  await expect(diff).toContainText(fileName);
  await expect(diff).toContainText("new file");
  await expect(diff).toContainText(message);
  await snap(page, testInfo, "inbox: the diff to approve");

  await approval.getByRole("button", { name: "Approve once" }).click();
  await expect(approval.getByRole("status")).toHaveText(/^Approved once( by [^.]+)?\. The write goes ahead\.$/);

  // Back on the run: it finished, and the file holds the message.
  await page.goto(runUrl);
  await expect(page.getByRole("group", { name: "Write a File, tool, succeeded" })).toBeVisible();
  await expect(page.getByRole("group", { name: "Output, succeeded" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: name })).toContainText("succeeded");
  await expect(inboxLink).toHaveAccessibleName(badge(waitingBefore));
  await snap(page, testInfo, "run view: succeeded after approval");
  expect(readWorkspaceFile(fileName)).toBe(message);

  // The runs list counts the approval the run asked for once it is decided too (it showed "—" when none waited).
  await page.goto("/runs");
  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row).toHaveCount(1);
  const approvalsColumn = await page.getByRole("columnheader").evaluateAll((headers) => headers.findIndex((header) => header.textContent?.trim() === "Approvals"));
  expect(approvalsColumn).toBeGreaterThan(0);
  // innerText: the cell also holds the "approvals" label a phone's card shows, hidden at this width.
  await expect(row.locator(":scope > *").nth(approvalsColumn)).toHaveText("1", { useInnerText: true });
  await snap(page, testInfo, "runs list: the approved run counts its approval");
});
