import { readFileSync } from "node:fs";
import { expect, test } from "./fixtures/test";
import { startRun, pendingApprovalIds, runStatus } from "./fixtures/approvals";
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
  // Abe has not joined yet, and the owner is not offered to themself.
  await expect(sharing.getByRole("combobox", { name: "Add a person or a role" })).not.toContainText(name);
  await expect(sharing.getByRole("combobox", { name: "Add a person or a role" }).getByRole("option")).toHaveText([
    "Choose a person or a role…",
    "Everyone who is Editor",
    "Everyone who is Viewer",
  ]);
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
