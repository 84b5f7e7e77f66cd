import { readFileSync } from "node:fs";
import { expect, test } from "./fixtures/test";
import { decisionButton, startRun, pendingApprovalIds, runStatus } from "./fixtures/approvals";
import { joinAs } from "./fixtures/people";
import { createWorkflow, readWorkspaceFile, snap, uniqueName, whenHydrated, writeWorkflow } from "./fixtures/studio";

/**
 * A studio two people share: the owner invites an approver from Settings →
 * People; the invitation link, opened in another browser, makes their
 * sign-in; they see the workflow shared with approvers and not the other,
 * approve its write from the inbox, and the run and the security log name them.
 */
test("the owner invites an approver, who joins in another browser, sees only what is shared with them, approves a write and is named for it", async ({ page, browser, request, baseURL }, testInfo) => {
  const suffix = testInfo.testId.slice(0, 6);
  const login = `abe-${suffix}`;
  const name = `Abe ${suffix}`;

  // The owner makes the invitation: shown once, to copy.
  await page.goto("/settings/people");
  await expect(page.getByRole("heading", { level: 1, name: "People" })).toBeVisible();
  await page.getByRole("button", { name: "Invite someone" }).click();
  const inviting = page.getByRole("dialog", { name: "Invite someone" });
  await inviting.getByRole("combobox", { name: "Role" }).selectOption("approver");
  await inviting.getByRole("textbox", { name: "Who it is for" }).fill(name);
  await inviting.getByRole("button", { name: "Make invitation link" }).click();
  const made = page.getByRole("dialog", { name: "Invitation made" });
  const link = await made.getByRole("textbox", { name: "Invitation link" }).inputValue();
  expect(link).toMatch(/\/invite\/[\w-]{20,}$/);
  await snap(page, testInfo, "people: the invitation link, shown once");
  await made.getByRole("button", { name: "Done" }).click();
  await expect(page.getByRole("row").filter({ hasText: name })).toContainText("Approver");

  // A workflow shared with approvers, waiting for a decision; another nobody shared.
  const fileName = `people-${suffix}.txt`;
  const shared = uniqueName("Shared with approvers", testInfo);
  const sharedId = await createWorkflow(request, writeWorkflow(shared, fileName));
  const hidden = uniqueName("Owner's alone", testInfo);
  await createWorkflow(request, writeWorkflow(hidden, `hidden-${suffix}.txt`));
  // Shared from the editor: everyone who is an approver may decide its approvals.
  await page.goto(`/workflows/${sharedId}`);
  await whenHydrated(page.getByRole("button", { name: "Share" }));
  await page.getByRole("button", { name: "Share" }).click();
  const sharing = page.getByRole("dialog", { name: `Share “${shared}”` });
  await expect(sharing.getByText("Only you (and the studio's owners and admins) can see it.")).toBeVisible();
  await sharing.getByRole("combobox", { name: "Add a person or a role" }).selectOption({ label: "Everyone who is Approver" });
  await sharing.getByRole("combobox", { name: "Role on this workflow for Everyone who is Approver" }).selectOption("approver");
  // Abe has not joined yet, and the owner is not offered to themself (people other tests invited may be).
  const adding = sharing.getByRole("combobox", { name: "Add a person or a role" });
  await expect(adding).not.toContainText(name);
  const me = ((await (await request.get("/api/me")).json()) as { person: { id: string } }).person;
  await expect(adding.locator(`option[value="person:${me.id}"]`)).toHaveCount(0);
  await expect(adding.getByRole("option").filter({ hasText: /^Everyone who is / })).toHaveText(["Everyone who is Editor", "Everyone who is Viewer"]);
  await snap(page, testInfo, "share: approvers may decide its approvals");
  await sharing.getByRole("button", { name: "Save sharing" }).click();
  await expect(sharing).toHaveCount(0);
  const shares = await request.get(`/api/workflows/${sharedId}/shares`);
  const saved = ((await shares.json()) as { shares: { subject: unknown; role: string }[] }).shares;
  expect(saved.map(({ subject, role }) => ({ subject, role }))).toEqual([{ subject: { role: "approver" }, role: "approver" }]);
  const runId = await startRun(request, sharedId, { message: "written after Abe said yes" });
  await pendingApprovalIds(request, runId);

  // The approver, in a browser of their own, joins with the link.
  const theirs = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  const approver = await theirs.newPage();
  await approver.goto(link);
  await expect(approver.getByRole("heading", { name: "Join the studio" })).toBeVisible();
  await expect(approver.getByText("invited you as Approver")).toBeVisible();
  await approver.getByRole("textbox", { name: "Sign-in name" }).fill(login);
  await approver.getByRole("textbox", { name: "Your name" }).fill(name);
  await approver.getByLabel("Password").fill("short");
  await approver.getByRole("button", { name: "Join" }).click();
  await expect(approver.getByText(/at least 12 characters/)).toBeVisible();
  await approver.getByLabel("Password").fill("correct horse battery staple");
  await approver.getByRole("button", { name: "Join" }).click();
  await expect(approver).toHaveURL(/\/workflows$/);
  await expect(approver.getByRole("banner")).toContainText(name);
  await expect(approver.getByRole("banner")).toContainText("Approver");
  await expect(approver.getByRole("link", { name: shared })).toBeVisible();
  await expect(approver.getByRole("link", { name: hidden })).toHaveCount(0);
  // What an approver may not do is not offered: no New, Import, Rename, Duplicate or Delete; Export is.
  await expect(approver.getByRole("button", { name: /^(New workflow|Import JSON|Rename|Duplicate|Delete)\b/ })).toHaveCount(0);
  await expect(approver.getByRole("button", { name: `Export ${shared}` })).toBeVisible();
  await snap(approver, testInfo, "approver: only the shared workflow");

  // Opened, the workflow is shown read-only: no palette, no save, no run, every field of the inspector disabled.
  await approver.getByRole("link", { name: shared }).click();
  const toolbar = approver.getByRole("toolbar", { name: "Workflow" });
  await expect(toolbar).toContainText("View only");
  await expect(toolbar.getByRole("button", { name: /^(Save|Run|Undo|Versions|Share)$/ })).toHaveCount(0);
  await expect(approver.getByRole("navigation", { name: "Node palette" })).toHaveCount(0);
  await expect(approver.getByTestId("read-only-note")).toBeVisible();
  await expect(approver.getByRole("textbox", { name: "Name" })).toBeDisabled();
  await snap(approver, testInfo, "approver: the workflow, view only");

  // The approver decides in the inbox; the write goes ahead.
  await approver.goto("/inbox");
  const card = approver.getByRole("article").filter({ hasText: shared });
  await card.getByRole("button", { name: "Approve once" }).click();
  await expect(card.getByRole("status")).toHaveText(new RegExp(`^Approved once by ${name}\\. The write goes ahead\\.$`));
  await expect.poll(() => runStatus(request, runId)).toBe("succeeded");
  expect(readWorkspaceFile(fileName)).toBe("written after Abe said yes");
  // Settings they may not change say so instead of failing later.
  await approver.goto("/settings/secrets");
  await expect(approver.getByRole("main").getByRole("alert")).toContainText("secret:use");
  await theirs.close();

  // The owner's security log names them: joining, their decision, and a refusal if any.
  await page.goto("/settings/security");
  await expect(page.getByRole("listitem").filter({ hasText: `${name} joined with an invitation` }).first()).toBeVisible();
  await expect(page.getByRole("listitem").filter({ hasText: `${name} decided an approval in “${shared}”` }).first()).toBeVisible();
  // Filtered to them, the log shows only their entries; the export takes the same filters.
  await whenHydrated(page.getByRole("combobox", { name: "Who" }));
  await page.getByRole("combobox", { name: "Who" }).selectOption({ label: name });
  const log = page.getByRole("region", { name: "Security log" });
  await expect(log.getByRole("listitem").first()).toContainText(name);
  await expect(log.getByRole("listitem").filter({ hasNotText: name })).toHaveCount(0);
  await snap(page, testInfo, "security log: the approver's entries");
  const downloading = page.waitForEvent("download");
  await log.getByRole("link", { name: "Export CSV" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^security-log-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = readFileSync((await download.path())!, "utf8");
  expect(csv.split("\r\n")[0]).toBe("at,actor,actorId,action,target,clientAddress,detail");
  expect(csv).toContain(`"${name}"`);
  expect(csv).toContain('"invitation-accepted"');
});

/**
 * The studio offers each person what their scopes allow, and says why the
 * rest is missing (issue 29): on a workflow shared with approvers and
 * viewers, an approver may decide its write but not cancel, delete or run
 * its runs again; a viewer sees the approval read-only, with who can answer
 * it, and no Cancel or Delete among the runs. The server refuses all of it
 * with 403 either way; here the pages tell the truth before anyone presses.
 */

test("an approver may decide but not cancel or delete; a viewer sees the approval read-only and no Delete among the runs", async ({ page, browser, request, baseURL }, testInfo) => {
  // Three browsers and two sign-ups on a 2-core machine beside other work.
  test.slow();
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
  await snap(approver, testInfo, "approver: a finished run, no run again or delete");

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
