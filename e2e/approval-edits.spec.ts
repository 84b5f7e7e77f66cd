import { startScriptedOpenAIServer, type ScriptedOpenAIServer } from "../tests/support/scripted-openai-server";
import { expect, test } from "./fixtures/test";
import { blockingViolations } from "./fixtures/accessibility";
import { commandAgentWorkflow, decisionButton, oneStepWorkflow, pendingApprovalIds, runStatus, startRun } from "./fixtures/approvals";
import { createWorkflow, readWorkspaceFile, snap, uniqueName, whenHydrated } from "./fixtures/studio";

let model: ScriptedOpenAIServer;

test.beforeAll(async () => {
  model = await startScriptedOpenAIServer();
});
test.afterAll(async () => {
  await model?.close();
});

/**
 * Edit and approve, as a person meets it in the inbox: the shell step's
 * command is opened in a form generated from the tool's input schema; an
 * empty command is refused at once beside the field, one of blanks by the
 * server (its 422 named the field); the edited command is approved, the card
 * shows what was proposed and what was approved as a diff, and the command
 * that ran is the edited one.
 */
test("edit a command before approving it: inline errors, the diff, and the edited command runs", async ({ page, request }, testInfo) => {
  const suffix = testInfo.testId.slice(0, 6);
  const name = uniqueName("Edited command", testInfo);
  const proposed = `proposed-${suffix}.txt`;
  const edited = `edited-${suffix}.txt`;
  const workflowId = await createWorkflow(request, oneStepWorkflow(name, { tool: "run_command", operation: "run", label: "Clean up", arguments: { command: `echo proposed > ${proposed}` } }));
  const runId = await startRun(request, workflowId);
  await pendingApprovalIds(request, runId);

  await page.goto("/inbox");
  const card = page.getByRole("article").filter({ hasText: name });
  await whenHydrated(decisionButton(card, "Edit and approve"));
  await decisionButton(card, "Edit and approve").click();

  const form = card.getByRole("form", { name: "Edit the arguments" });
  const command = form.getByRole("textbox", { name: /^Command/ });
  await expect(command).toHaveValue(`echo proposed > ${proposed}`);
  const approve = form.getByRole("button", { name: "Approve with these changes" });

  // Empty: the form knows at once, and nothing can be sent.
  await command.fill("");
  await expect(command).toHaveAttribute("aria-invalid", "true");
  await expect(approve).toBeDisabled();

  // Blanks pass the form's schema but not the tool's (it trims): the server's 422 lands beside the field; nothing was decided.
  await command.fill("   ");
  await approve.click();
  await expect(form.getByText("give the command to run")).toBeVisible();
  await expect(command).toHaveAttribute("aria-invalid", "true");
  // What the person typed stays, to be corrected.
  await expect(command).toHaveValue("   ");
  await snap(page, testInfo, "edit and approve: the server names the command field");
  expect(await blockingViolations(page, "inbox: the edit form with the server's error")).toEqual([]);
  expect(await runStatus(request, runId)).toBe("awaiting_input");

  await command.fill(`echo edited > ${edited}`);
  await approve.click();
  await expect(card.getByTestId("approval-outcome")).toHaveText(/^Approved with edits by .+\. The edited version goes ahead/);
  const diff = card.getByRole("group", { name: "Edited before approval" });
  await expect(diff.locator("[data-diff=removed]")).toContainText(`echo proposed > ${proposed}`);
  await expect(diff.locator("[data-diff=added]")).toContainText(`echo edited > ${edited}`);
  await snap(page, testInfo, "edit and approve: the proposed and the approved command as a diff");
  expect(await blockingViolations(page, "inbox: the edit's diff")).toEqual([]);

  await expect.poll(() => runStatus(request, runId)).toBe("succeeded");
  expect(readWorkspaceFile(edited)).toBe("edited\n");
  expect(readWorkspaceFile(proposed)).toBeNull();

  // The run view shows the same diff on the decided approval.
  await page.goto(`/runs/${runId}`);
  await whenHydrated(page.getByLabel("Show node"));
  await page.getByLabel("Show node").selectOption("step");
  const details = page.getByRole("complementary", { name: "Node details" });
  await expect(details.getByText(/^Approved with edits by /)).toBeVisible();
  await expect(details.getByRole("group", { name: "Edited before approval" }).locator("[data-diff=added]")).toContainText(`echo edited > ${edited}`);
  await snap(page, testInfo, "run view: the edited approval");
});

test("edit an agent's plan before approving it: the agent is told to carry out the edited plan", async ({ page, request }, testInfo) => {
  const name = uniqueName("Edited plan", testInfo);
  model.script({ text: "1. Delete every file in the workspace." }, { text: "I listed the files and changed nothing." });
  const workflow = commandAgentWorkflow(name, model.baseUrl);
  const planned = { ...workflow, nodes: workflow.nodes.map((node) => (node.kind === "agent" ? { ...node, mode: "plan" as const } : node)) };
  const runId = await startRun(request, await createWorkflow(request, planned));
  await pendingApprovalIds(request, runId);
  const before = model.requests.length;

  await page.goto("/inbox");
  const card = page.getByRole("article").filter({ hasText: name });
  await whenHydrated(decisionButton(card, "Edit and approve"));
  await decisionButton(card, "Edit and approve").click();
  const plan = card.getByRole("textbox", { name: "The plan to carry out" });
  await expect(plan).toHaveValue("1. Delete every file in the workspace.");
  await plan.fill("");
  await card.getByRole("button", { name: "Approve with these changes" }).click();
  await expect(card.getByText("Write the plan to carry out, or deny it.")).toBeVisible();
  await plan.fill("1. Only list the files; delete nothing.");
  await card.getByRole("button", { name: "Approve with these changes" }).click();
  await expect(card.getByTestId("approval-outcome")).toHaveText(/^Approved with edits by /);
  await expect(card.getByRole("group", { name: "Edited before approval" }).locator("[data-diff=added]")).toContainText("1. Only list the files; delete nothing.");
  await snap(page, testInfo, "edit and approve: an agent's edited plan");

  await expect.poll(() => runStatus(request, runId)).toBe("succeeded");
  const told = JSON.stringify(model.requests[before]!.body);
  expect(told).toContain("The person edited your plan before approving it; carry out this plan, not yours:");
  expect(told).toContain("1. Only list the files; delete nothing.");
});
