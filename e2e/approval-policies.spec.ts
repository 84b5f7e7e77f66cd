import { expect, test } from "./fixtures/test";
import { decisionButton, pendingApprovalIds, runStatus, startRun } from "./fixtures/approvals";
import { joinAs } from "./fixtures/people";
import { createWorkflow, readWorkspaceFile, snap, uniqueName, whenHydrated, writeWorkflow } from "./fixtures/studio";

/**
 * Who approves, as people meet it: the builder sets "two people must approve
 * file changes" in the workflow's settings; the owner who starts the run
 * finds the card under "Waiting for others", saying why; the first approver's
 * approval is recorded as 1 of 2; the second, on a phone, sees who approved
 * and the time left, and their approval lets the write happen.
 */
test("a write that needs two approvers: not the starter, 1 of 2 recorded, the second on a phone lets it run", async ({ page, browser, request, baseURL }, testInfo) => {
  // Three browsers and two sign-ups on a 2-core machine beside other work.
  test.slow();
  const suffix = testInfo.testId.slice(0, 6);
  const name = uniqueName("Two approvers", testInfo);
  const fileName = `two-approvers-${suffix}.txt`;
  const workflowId = await createWorkflow(request, writeWorkflow(name, fileName));
  const shared = await request.put(`/api/workflows/${workflowId}/shares`, { data: { shares: [{ subject: { role: "approver" }, role: "approver" }] } });
  expect(shared.status(), await shared.text()).toBe(200);

  // The rule is set where a builder sets it: the workflow's settings, under Who approves.
  await page.goto(`/workflows/${workflowId}`);
  await whenHydrated(page.getByRole("button", { name: "Set who approves: File changes" }));
  await page.getByRole("button", { name: "Set who approves: File changes" }).click();
  const rule = page.getByRole("group", { name: "Who approves: File changes" });
  await rule.getByRole("spinbutton", { name: "Approvals needed" }).fill("2");
  await expect(rule.getByRole("checkbox", { name: /Not the person who started the run/ })).toBeChecked();
  await rule.getByRole("checkbox", { name: "A deadline for File changes" }).check();
  await rule.getByRole("spinbutton", { name: "Minutes to decide" }).fill("90");
  await snap(page, testInfo, "editor: who approves file changes");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible();
  const saved = (await (await request.get(`/api/workflows/${workflowId}`)).json()) as { workflow: { definition: { approvals?: unknown } } };
  expect(saved.workflow.definition.approvals).toEqual({ kinds: { write: { approvers: [], required: 2, deadline: { minutes: 90, then: "deny" } } } });

  const runId = await startRun(request, workflowId, { message: "written after two said yes" });
  await pendingApprovalIds(request, runId);

  // The owner started it: their inbox shows it waiting for others, and why.
  await page.goto("/inbox");
  const ownersCard = page.getByRole("article").filter({ hasText: name });
  await expect(page.getByTestId("waiting-for-others")).toBeVisible();
  await expect(ownersCard.getByTestId("approval-read-only")).toHaveText("The person who started the run may not approve its own steps: someone else must decide.");
  await expect(ownersCard.getByTestId("approval-quorum")).toHaveText("0 of 2 approved. Needs 2 different people, not the one who started the run.");
  await expect(ownersCard.getByTestId("approval-due")).toContainText(/Decide within 1 h \d+ min: then it is denied\./);

  const ann = await joinAs(page, browser, baseURL, "approver", `ann2-${suffix}`, `Ann ${suffix}`);
  await ann.goto("/inbox");
  const annsCard = ann.getByRole("article").filter({ hasText: name });
  await whenHydrated(decisionButton(annsCard, "Approve once"));
  await decisionButton(annsCard, "Approve once").click();
  await expect(annsCard.getByTestId("approval-outcome")).toHaveText("Your approval is recorded: 1 of 2. It waits for one more person.");
  expect(await runStatus(request, runId)).toBe("awaiting_input");
  expect(readWorkspaceFile(fileName)).toBeNull();

  const bo = await joinAs(page, browser, baseURL, "approver", `bo2-${suffix}`, `Bo ${suffix}`, { width: 390, height: 844 });
  await bo.goto("/inbox");
  const bosCard = bo.getByRole("article").filter({ hasText: name });
  await expect(bosCard.getByTestId("approval-quorum")).toHaveText(`1 of 2 approved, by Ann ${suffix}. Needs 2 different people, not the one who started the run.`);
  await whenHydrated(decisionButton(bosCard, "Approve once"));
  await snap(bo, testInfo, "phone: the card with 1 of 2 approved and the time left");
  await decisionButton(bosCard, "Approve once").click();
  await expect(bosCard.getByTestId("approval-outcome")).toHaveText(new RegExp(`^Approved once by Bo ${suffix}\\.`));
  await expect.poll(() => runStatus(request, runId)).toBe("succeeded");
  expect(readWorkspaceFile(fileName)).toBe("written after two said yes");

  await ann.context().close();
  await bo.context().close();
});
