import { expect, test } from "./fixtures/test";
import { startScriptedOpenAIServer, type ScriptedOpenAIServer } from "../tests/support/scripted-openai-server";
import { createWorkflow, readWorkspaceFile, snap, uniqueName, workspace } from "./fixtures/studio";

/**
 * An agent backed by a scripted OpenAI-compatible server asks to write a file:
 * the inbox shows the write, approving it writes the file, and the run view
 * shows the agent's text and its tool call.
 */

let model: ScriptedOpenAIServer;

test.beforeAll(async () => {
  model = await startScriptedOpenAIServer();
});
test.afterAll(async () => {
  await model?.close();
});

test("an agent's write waits in the inbox; approving it writes the file", async ({ page, request }, testInfo) => {
  const name = uniqueName("Agent writes", testInfo);
  const fileName = `agent-${testInfo.testId.slice(0, 8)}.txt`;
  model.script(
    { text: "I will write the note now.", toolCalls: [{ name: "write_file", arguments: { path: fileName, content: "Written by the agent." } }] },
    { text: `Done: the note is in ${fileName}.` },
  );
  const id = await createWorkflow(request, {
    name,
    mode: "default",
    nodes: [
      { id: "input", kind: "input", position: { x: 0, y: 0 }, fields: [{ name: "topic", label: "Topic", type: "string", required: true }] },
      { id: "write", kind: "tool", position: { x: 300, y: 200 }, tool: "write_file", settings: { root: workspace() } },
      {
        id: "agent",
        kind: "agent",
        label: "Note writer",
        position: { x: 300, y: 0 },
        provider: "openai_compatible",
        model: "scripted-model",
        baseUrl: model.baseUrl,
        task: "Write a note about {{ inputs.topic }}.",
      },
      { id: "output", kind: "output", position: { x: 600, y: 0 }, value: "{{ nodes.agent.output }}" },
    ],
    edges: [
      { id: "input-agent", source: "input", target: "agent" },
      { id: "write-agent", source: "write", target: "agent" },
      { id: "agent-output", source: "agent", target: "output" },
    ],
  });

  await page.goto(`/workflows/${id}`);
  await expect(page.getByText("Ready to run")).toBeVisible();
  await page.getByRole("button", { name: "Run", exact: true }).click();
  const runDialog = page.getByRole("dialog", { name: "Run the workflow" });
  await runDialog.getByRole("textbox", { name: "Topic", exact: true }).fill("birds");
  await runDialog.getByRole("button", { name: "Start run" }).click();
  await expect(page).toHaveURL(/\/runs\/[^/]+$/);
  const runUrl = page.url();

  const inboxLink = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: /^Inbox/ });
  await expect(inboxLink).toHaveAccessibleName(/^Inbox\s*1 waiting$/);
  await inboxLink.click();
  const approval = page.getByRole("article").filter({ hasText: name });
  await expect(approval).toHaveCount(1);
  await expect(approval.getByRole("group", { name: "Proposed change" })).toContainText("Written by the agent.");
  await snap(page, testInfo, "inbox: the agent's write");
  expect(readWorkspaceFile(fileName)).toBeNull();
  await approval.getByRole("button", { name: "Approve once" }).click();
  await expect(approval.getByRole("status")).toContainText("Approved once");

  await page.goto(runUrl);
  // The second model turn and the write happen after the approval; allow for a loaded CI machine.
  await expect(page.getByRole("heading", { level: 1, name })).toContainText("succeeded", { timeout: 30_000 });
  await page.getByRole("group", { name: /^Note writer, Agent, succeeded/ }).click();
  await expect(page.getByLabel("The agent's text")).toContainText("I will write the note now.");
  await expect(page.getByRole("list", { name: "Tool calls" })).toContainText(fileName);
  // What its two model calls used, as the (scripted) provider reported them: 10 tokens in and 5 out each.
  await expect(page.getByTestId("agent-tokens")).toHaveText("20 tokens in, 10 out · 2 model calls");
  await snap(page, testInfo, "run view: the agent's text and tool call");
  expect(readWorkspaceFile(fileName)).toBe("Written by the agent.");
  expect(model.requests.every((each) => !each.rawBody.includes(workspace()))).toBe(true);
});
