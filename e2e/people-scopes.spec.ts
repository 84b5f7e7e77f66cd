import type { Browser, Page } from "@playwright/test";
import { expect, test } from "./fixtures/test";
import { decisionButton, pendingApprovalIds, runStatus, startRun } from "./fixtures/approvals";
import { createWorkflow, snap, uniqueName, whenHydrated, writeWorkflow } from "./fixtures/studio";

/**
 * The studio offers each person what their scopes allow, and says why the
 * rest is missing (issue 29): on a workflow shared with approvers and
 * viewers, an approver may decide its write but not cancel, delete or run
 * its runs again; a viewer sees the approval read-only, with who can answer
 * it, and no Cancel or Delete among the runs. The server refuses all of it
 * with 403 either way; here the pages tell the truth before anyone presses.
 */

/** Invites someone with `role` (the owner's `page` on Settings → People) and joins as them in a browser of their own. */
async function joinAs(page: Page, browser: Browser, baseURL: string | undefined, role: "approver" | "viewer", login: string, name: string): Promise<Page> {
  const { link } = (await (await page.request.post("/api/people/invitations", { data: { role, note: `for ${login}` } })).json()) as { link: string };
  const context = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  const theirs = await context.newPage();
  await theirs.goto(link);
  await theirs.getByRole("textbox", { name: "Sign-in name" }).fill(login);
  await theirs.getByRole("textbox", { name: "Your name" }).fill(name);
  await theirs.getByLabel("Password").fill("correct horse battery staple");
  await theirs.getByRole("button", { name: "Join" }).click();
  await expect(theirs).toHaveURL(/\/workflows$/);
  return theirs;
}

test("an approver may decide but not cancel or delete; a viewer sees the approval read-only and no Delete among the runs", async ({ page, browser, request, baseURL }, testInfo) => {
  const suffix = testInfo.testId.slice(0, 6);
  const shared = uniqueName("Shared for scopes", testInfo);
  const workflowId = await createWorkflow(request, writeWorkflow(shared, `scopes-${suffix}.txt`));
  const sharing = await request.put(`/api/workflows/${workflowId}/shares`, {
    data: {
      shares: [
        { subject: { role: "approver" }, role: "approver" },
        { subject: { role: "viewer" }, role: "viewer" },
      ],
    },
  });
  expect(sharing.status(), await sharing.text()).toBe(200);
  const runId = await startRun(request, workflowId, { message: "written once the approver agrees" });
  await pendingApprovalIds(request, runId);

  const approver = await joinAs(page, browser, baseURL, "approver", `ann-${suffix}`, `Ann ${suffix}`);
  const viewer = await joinAs(page, browser, baseURL, "viewer", `vic-${suffix}`, `Vic ${suffix}`);

  // The approver's run page: the write to decide, but no Cancel or Delete, and a line saying what cancelling needs.
  await approver.goto(`/runs/${runId}`);
  await whenHydrated(approver.getByRole("combobox", { name: "Show node" }));
  await expect(decisionButton(approver.getByRole("article"), "Approve once")).toBeVisible();
  await expect(approver.getByRole("button", { name: /^(Cancel|Delete)\b/ })).toHaveCount(0);
  await expect(approver.getByTestId("run-withheld")).toHaveText("You may follow this run; cancelling or deleting it needs run:cancel on its workflow.");
  await snap(approver, testInfo, "approver: a waiting run, no cancel or delete");

  // The viewer's inbox: the same approval, read-only, saying who can answer it.
  await viewer.goto("/inbox");
  const viewersCard = viewer.getByRole("article").filter({ hasText: shared });
  await expect(viewersCard.getByTestId("approval-read-only")).toHaveText(`Only people who may decide approvals on “${shared}” can answer this (the approval:decide scope).`);
  await expect(viewersCard.getByRole("button", { name: /^(Approve|Always allow|Deny|Send answer)\b/ })).toHaveCount(0);
  await snap(viewer, testInfo, "viewer: the inbox card, read-only");

  // The approver's inbox offers the decision, and it goes through.
  await approver.goto("/inbox");
  const approversCard = approver.getByRole("article").filter({ hasText: shared });
  await whenHydrated(decisionButton(approversCard, "Approve once"));
  await snap(approver, testInfo, "approver: the inbox card with its decisions");
  await decisionButton(approversCard, "Approve once").click();
  await expect(approversCard.getByRole("status")).toHaveText(new RegExp(`^Approved once by Ann ${suffix}\\.`));
  await expect.poll(() => runStatus(request, runId)).toBe("succeeded");

  // Finished, the run offers the approver neither Run again nor Delete.
  await approver.goto(`/runs/${runId}`);
  await expect(approver.getByTestId("run-withheld")).toHaveText("You may follow this run; deleting it needs run:cancel and running it again needs workflow:run on its workflow.");
  await expect(approver.getByRole("button", { name: /^(Run again|Retry|Delete|Copy to editor)\b/ })).toHaveCount(0);

  // The viewer's runs: the run is listed and opens, with no Cancel or Delete, and the page says why.
  await viewer.goto(`/runs?workflowId=${workflowId}`);
  const row = viewer.getByRole("row").filter({ hasText: shared });
  await expect(row.getByRole("link", { name: /^Open the run of/ })).toBeVisible();
  await expect(viewer.getByRole("button", { name: /^(Cancel|Delete)\b/ })).toHaveCount(0);
  await expect(viewer.getByText("Cancelling and deleting runs needs the run:cancel scope")).toBeVisible();
  await snap(viewer, testInfo, "viewer: the runs list without delete");
  // The owner's list, for comparison, offers Delete on the same row.
  await page.goto(`/runs?workflowId=${workflowId}`);
  await expect(page.getByRole("row").filter({ hasText: shared }).getByRole("button", { name: /^Delete the run of/ })).toBeVisible();

  // Settings shows the viewer only the tabs they may open.
  await viewer.goto("/settings");
  await expect(viewer).toHaveURL(/\/settings\/security$/);
  await expect(viewer.getByRole("navigation", { name: "Settings" }).getByRole("link")).toHaveText(["Security", "Account"]);
  await snap(viewer, testInfo, "viewer: settings, their tabs only");

  await approver.context().close();
  await viewer.context().close();
});
