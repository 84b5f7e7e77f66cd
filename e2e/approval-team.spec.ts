import { startMailServer, type TestMailServer } from "../tests/support/mail-server";
import { expect, test } from "./fixtures/test";
import { decisionButton, oneStepWorkflow, pendingApprovalIds, runStatus, startRun } from "./fixtures/approvals";
import { joinAs } from "./fixtures/people";
import { createWorkflow, readWorkspaceFile, snap, uniqueName, whenHydrated } from "./fixtures/studio";

let mail: TestMailServer;

test.beforeAll(async ({ studio }) => {
  // The port this worker's studio mails to (e2e/fixtures/worker-studio.ts): a real SMTP server, here only while this spec runs.
  mail = await startMailServer({ port: studio.mailPort });
});
test.afterAll(async () => {
  await mail?.close();
});

/** The link a mail to `address` carries, once it has come. */
async function linkMailedTo(address: string): Promise<string> {
  await expect.poll(() => mail.received.some((each) => each.to === address), { timeout: 60_000, message: `a mail to ${address}` }).toBe(true);
  const text = mail.received.find((each) => each.to === address)!.mail.text ?? "";
  const link = /https?:\/\/\S+\/inbox\?approval=[A-Za-z0-9-]+/.exec(text)?.[0];
  expect(link, text).toBeTruthy();
  return link!;
}

/**
 * A team's approval, as the issue tells it: a shell step that two of three
 * approvers must approve. The owner who started it may not; every approver
 * is mailed a link that only opens the card; the first follows it on a phone
 * and approves (1 of 2); the second edits the command and approves; the
 * command that runs is the edited one.
 */
test("two of three approvers: mailed a link, the first approves on a phone, the second edits the command, and the edit runs", async ({ page, browser, request, baseURL }, testInfo) => {
  // Four browsers, three sign-ups and a mail round trip on a 2-core machine beside other work.
  test.slow();
  const suffix = testInfo.testId.slice(0, 6).toLowerCase();
  const name = uniqueName("Team approval", testInfo);
  const proposed = `team-proposed-${suffix}.txt`;
  const edited = `team-edited-${suffix}.txt`;
  const workflow = oneStepWorkflow(name, { tool: "run_command", operation: "run", label: "Clean up", arguments: { command: `echo proposed > ${proposed}` } });
  const gated = { ...workflow, nodes: workflow.nodes.map((node) => (node.id === "step" ? { ...node, approvals: { approvers: [], required: 2 } } : node)) };
  const workflowId = await createWorkflow(request, gated);
  const shared = await request.put(`/api/workflows/${workflowId}/shares`, { data: { shares: [{ subject: { role: "approver" }, role: "approver" }] } });
  expect(shared.status(), await shared.text()).toBe(200);

  const addresses = ["ann", "bo", "cy"].map((who) => `${who}-${suffix}@example.test`);
  const ann = await joinAs(page, browser, baseURL, "approver", addresses[0]!, `Ann ${suffix}`, { width: 390, height: 844 });
  const bo = await joinAs(page, browser, baseURL, "approver", addresses[1]!, `Bo ${suffix}`);
  const cy = await joinAs(page, browser, baseURL, "approver", addresses[2]!, `Cy ${suffix}`);

  const runId = await startRun(request, workflowId);
  const [approvalId] = await pendingApprovalIds(request, runId);

  // The owner started it: the card is theirs to read, not to decide.
  await page.goto("/inbox");
  const ownersCard = page.getByRole("article").filter({ hasText: name });
  await expect(ownersCard.getByTestId("approval-read-only")).toHaveText("The person who started the run may not approve its own steps: someone else must decide.");

  // The owner follows the run on its page, and Cy has the inbox open: neither reloads from here on.
  const rule = "Needs 2 different people, not the one who started the run.";
  await page.goto(`/runs/${runId}`);
  const runCard = page.getByRole("complementary", { name: "Node details" }).getByRole("article");
  await expect(runCard.getByTestId("approval-quorum")).toHaveText(`0 of 2 approved. ${rule}`);
  await expect(runCard.getByTestId("approval-read-only")).toHaveText("The person who started the run may not approve its own steps: someone else must decide.");
  // Not theirs to decide, so nothing on the page says it waits for them.
  await expect(page.getByRole("heading", { level: 1 })).toContainText("waiting for approval");
  await expect(page.getByRole("group", { name: "Clean up, Run a Shell Command tool, waiting for approval" })).toBeVisible();
  await expect(page.getByRole("main").getByText("waiting for you")).toHaveCount(0);
  await cy.goto("/inbox");
  const cysCard = cy.getByRole("article").filter({ hasText: name });
  await expect(cysCard.getByTestId("approval-quorum")).toHaveText(`0 of 2 approved. ${rule}`);

  // Each approver is mailed; the link names the approval and nothing else: no decision rides on it.
  const annsLink = await linkMailedTo(addresses[0]!);
  expect(new URL(annsLink).search).toBe(`?approval=${approvalId}`);
  for (const address of addresses.slice(1)) await linkMailedTo(address);
  const mailed = mail.received.find((each) => each.to === addresses[0])!.mail;
  expect(mailed.subject).toContain(name);
  expect(mailed.text).toContain(`echo proposed > ${proposed}`);
  // Opening the link, signed in, decides nothing.
  await ann.goto(annsLink);
  const annsCard = ann.getByRole("article").filter({ hasText: name });
  await whenHydrated(decisionButton(annsCard, "Approve"));
  await expect(annsCard.getByTestId("approval-quorum")).toHaveText("0 of 2 approved. Needs 2 different people, not the one who started the run.");
  expect(await runStatus(request, runId)).toBe("awaiting_input");
  await snap(ann, testInfo, "phone: the card opened from the e-mail's link");
  await decisionButton(annsCard, "Approve").click();
  await expect(annsCard.getByTestId("approval-outcome")).toHaveText("Your approval is recorded: 1 of 2. It waits for one more person.");
  expect(readWorkspaceFile(proposed)).toBeNull();
  // Said live: on the run's page (its card and its timeline), and in Cy's open inbox.
  await expect(runCard.getByTestId("approval-quorum")).toHaveText(`1 of 2 approved, by Ann ${suffix}. ${rule}`);
  await expect(page.getByRole("region", { name: "Timeline" }).getByRole("listitem").filter({ hasText: `Approved by Ann ${suffix}: 1 of 2, waiting for one more person` })).toHaveCount(1);
  await expect(cysCard.getByTestId("approval-quorum")).toHaveText(`1 of 2 approved, by Ann ${suffix}. ${rule}`);
  await snap(page, testInfo, "run page: 1 of 2 approved, live, read-only for the starter");

  // The second edits the command before approving; the card says who approved first.
  await bo.goto(await linkMailedTo(addresses[1]!));
  const bosCard = bo.getByRole("article").filter({ hasText: name });
  await expect(bosCard.getByTestId("approval-quorum")).toHaveText(`1 of 2 approved, by Ann ${suffix}. Needs 2 different people, not the one who started the run.`);
  await snap(bo, testInfo, "inbox: 1 of 2 approved, by Ann");
  await whenHydrated(decisionButton(bosCard, "Edit and approve"));
  await decisionButton(bosCard, "Edit and approve").click();
  const command = bosCard.getByRole("form", { name: "Edit the arguments" }).getByRole("textbox", { name: /^Command/ });
  await expect(command).toHaveValue(`echo proposed > ${proposed}`);
  await command.fill(`echo edited > ${edited}`);
  await bosCard.getByRole("button", { name: "Approve with these changes" }).click();
  await expect(bosCard.getByTestId("approval-outcome")).toHaveText(/^Approved with edits by Bo /);
  await expect(bosCard.getByRole("group", { name: "Edited before approval" }).locator("[data-diff=added]")).toContainText(`echo edited > ${edited}`);
  await snap(bo, testInfo, "inbox: the second approver's edit as a diff");

  await expect.poll(() => runStatus(request, runId)).toBe("succeeded");
  expect(readWorkspaceFile(edited)).toBe("edited\n");
  expect(readWorkspaceFile(proposed)).toBeNull();

  // Decided: the third is too late, and says so.
  await cy.goto("/inbox");
  await expect(cy.getByRole("article").filter({ hasText: name })).toHaveCount(0);

  for (const each of [ann, bo, cy]) await each.context().close();
});
