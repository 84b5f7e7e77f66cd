import { expect, test } from "./fixtures/test";
import { blockingViolations, COLOUR_RULES, switchColorScheme } from "./fixtures/accessibility";
import { canvasCard, createWorkflow, readWorkspaceFile, snap, uniqueName, writeWorkflow } from "./fixtures/studio";

/**
 * Composition as a person builds it: a parent workflow's Sub-workflow step is
 * pointed at a saved child in the inspector, its run input mapped from the
 * parent's; the run's child waits for approval in the inbox, which names both
 * workflows; approved, the parent succeeds with the child's output, and the
 * run pages link each other both ways.
 */

test("a Sub-workflow step built in the inspector calls a saved workflow, whose approval names both workflows", async ({ page, request }, testInfo) => {
  const childName = uniqueName("Note writer", testInfo);
  const parentName = uniqueName("Daily notes", testInfo);
  const fileName = `sub-workflow-${testInfo.testId.slice(0, 8)}.txt`;
  const childId = await createWorkflow(request, writeWorkflow(childName, fileName));
  const published = await request.post(`/api/workflows/${childId}/publish`, { data: {} });
  expect(published.status(), await published.text()).toBe(200);
  const parentId = await createWorkflow(request, {
    name: parentName,
    nodes: [
      { id: "input", kind: "input", position: { x: 0, y: 0 }, fields: [{ name: "topic", label: "Topic", type: "string", required: true }] },
      { id: "call", kind: "subworkflow", label: "Write the note", position: { x: 320, y: 0 } },
      { id: "output", kind: "output", position: { x: 640, y: 0 }, value: "{{ nodes.call.output }}" },
    ],
    edges: [
      { id: "input-call", source: "input", target: "call" },
      { id: "call-output", source: "call", target: "output" },
    ],
  });

  // In the editor: choose the child in the step's inspector and map its run input from the parent's.
  await page.goto(`/workflows/${parentId}`);
  await page.getByTestId("node-card-Write the note").click();
  const inspector = page.getByRole("region", { name: "Inspector: Write the note" });
  await expect(inspector.getByText("Choose the workflow this step calls.")).toBeVisible();
  await inspector.getByRole("combobox", { name: "Workflow" }).selectOption({ label: childName });
  await expect(inspector.getByRole("combobox", { name: "Version" })).toHaveValue("published");
  const message = inspector.getByRole("combobox", { name: "message", exact: true });
  await expect(message).toBeVisible();
  // The child requires it: until it is mapped, the problem is said on the field.
  await expect(inspector.getByText(/needs its run input “message”/)).toBeVisible();
  await message.fill("Notes about {{ inputs.topic }}");
  await expect(page.getByText("Ready to run")).toBeVisible();
  await snap(page, testInfo, "editor: the step calls the child, its input mapped");
  expect(await blockingViolations(page, "the editor with the Sub-workflow inspector")).toEqual([]);
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible();

  // Run it: the step waits while the child's write waits for a person.
  await page.getByRole("button", { name: "Run", exact: true }).click();
  const runDialog = page.getByRole("dialog", { name: "Run the workflow" });
  await runDialog.getByRole("textbox", { name: "Topic", exact: true }).fill("composition");
  await runDialog.getByRole("button", { name: "Start run" }).click();
  await expect(page).toHaveURL(/\/runs\/[^/]+$/);
  const parentRunUrl = page.url();
  const parentHeading = page.getByRole("heading", { level: 1, name: parentName });
  await expect(parentHeading).toBeVisible();
  const waitingCard = canvasCard(page, "Write the note", "waiting for the run it called");
  await expect(waitingCard).toBeVisible();
  // Its badge says the same as its name: nobody is asked anything in this run, so nothing here says "waiting for you".
  await expect(waitingCard).toContainText("waiting for the run it called");
  await expect(page.getByLabel("Show node").getByRole("option", { name: "Write the note — waiting for the run it called" })).toHaveCount(1);
  await expect(page.getByRole("main").getByText("waiting for you")).toHaveCount(0);

  // The inbox names both workflows.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: /^Inbox/ }).click();
  await expect(page).toHaveURL(/\/inbox$/);
  const approval = page.getByRole("article").filter({ hasText: `${childName} called by ${parentName}` });
  await expect(approval).toHaveCount(1);
  await expect(approval.getByRole("group", { name: "Proposed change" })).toContainText("Notes about composition");
  await snap(page, testInfo, "inbox: the child's approval, named by both workflows");
  expect(await blockingViolations(page, "the inbox with a called run's approval")).toEqual([]);
  await approval.getByRole("button", { name: "Approve once" }).click();
  await expect(approval.getByRole("status")).toHaveText(/^Approved once( by [^.]+)?\. The write goes ahead\.$/);

  // The parent succeeds with the child's output, and its step links to the child's run.
  await page.goto(parentRunUrl);
  await expect(parentHeading).toContainText("succeeded");
  expect(readWorkspaceFile(fileName)).toBe("Notes about composition");
  await page.getByLabel("Show node").selectOption("call");
  const childLink = page.getByTestId("child-run-link");
  await expect(childLink).toContainText(`Calls “${childName}”`);
  await expect(page.getByRole("complementary", { name: "Node details" })).toContainText(fileName);
  await snap(page, testInfo, "parent run: succeeded with the child's output");
  expect(await blockingViolations(page, "the calling run's page, its step linking the child")).toEqual([]);
  await childLink.getByRole("link", { name: /^open its run #/ }).click();

  // The child's page says who called it, and links back.
  await expect(page.getByRole("heading", { level: 1, name: childName })).toContainText("succeeded");
  const callerLink = page.getByTestId("caller-run-link");
  await expect(callerLink).toContainText(`Called by “${parentName}” run #`);
  await expect(callerLink).toContainText("step “Write the note”");
  await snap(page, testInfo, "child run: called by the parent");
  expect(await blockingViolations(page, "the called run's page")).toEqual([]);
  await switchColorScheme(page, "dark");
  expect(await blockingViolations(page, "the called run's page, dark", COLOUR_RULES)).toEqual([]);
  await snap(page, testInfo, "child run: called by the parent, dark");
  await callerLink.getByRole("link", { name: /^Open the calling run #/ }).click();
  await expect(page).toHaveURL(parentRunUrl);
  await expect(parentHeading).toContainText("succeeded");
});
