import { expect, test } from "./fixtures/test";
import { blockingViolations } from "./fixtures/accessibility";
import { startScriptedOpenAIServer, type ScriptedOpenAIServer } from "../tests/support/scripted-openai-server";
import { createWorkflow, snap, uniqueName } from "./fixtures/studio";

/**
 * Tokens and cost as a person sees them: an agent's run against the scripted
 * OpenAI-compatible server shows its tokens and "no price set"; a price set in
 * Settings → Model prices (a bad one named on its cell first) turns them into
 * a cost on the run, in the runs list with the filter's total, and on the
 * workflow's 30-day chart.
 */

let model: ScriptedOpenAIServer;

test.beforeAll(async () => {
  model = await startScriptedOpenAIServer();
});
test.afterAll(async () => {
  await model?.close();
});

test("a price set in Settings prices an agent's run, the runs list and the 30-day chart", async ({ page, request }, testInfo) => {
  const name = uniqueName("Priced agent", testInfo);
  const modelName = `scripted-cost-${testInfo.testId.slice(0, 8)}`;
  // One model call: the scripted server reports 10 tokens in and 5 out.
  model.script({ text: "Summary: all good." });
  const id = await createWorkflow(request, {
    name,
    nodes: [
      { id: "input", kind: "input", position: { x: 0, y: 0 }, fields: [{ name: "topic", label: "Topic", type: "string", required: true }] },
      { id: "agent", kind: "agent", label: "Summariser", position: { x: 300, y: 0 }, provider: "openai_compatible", model: modelName, baseUrl: model.baseUrl, task: "Summarise {{ inputs.topic }}." },
      { id: "output", kind: "output", position: { x: 600, y: 0 }, value: "{{ nodes.agent.output }}" },
    ],
    edges: [
      { id: "input-agent", source: "input", target: "agent" },
      { id: "agent-output", source: "agent", target: "output" },
    ],
  });

  await page.goto(`/workflows/${id}`);
  await expect(page.getByText("Ready to run")).toBeVisible();
  await page.getByRole("button", { name: "Run", exact: true }).click();
  const runDialog = page.getByRole("dialog", { name: "Run the workflow" });
  await runDialog.getByRole("textbox", { name: "Topic", exact: true }).fill("the week");
  await runDialog.getByRole("button", { name: "Start run" }).click();
  await expect(page).toHaveURL(/\/runs\/[^/]+$/);
  const runUrl = page.url();
  await expect(page.getByRole("heading", { level: 1, name })).toContainText("succeeded", { timeout: 30_000 });
  // No price yet: tokens, and "no price set" where a cost would be, never a guess.
  await expect(page.getByTestId("run-tokens")).toHaveText("15 tokens");
  await expect(page.getByTestId("run-cost")).toHaveText("no price set");
  await page.getByRole("group", { name: /^Summariser, Agent, succeeded/ }).click();
  await expect(page.getByTestId("agent-tokens")).toHaveText("10 tokens in, 5 out · 1 model call");
  await expect(page.getByRole("complementary").getByRole("link", { name: "no price set" })).toHaveAttribute("href", "/settings/model-prices");

  // Settings → Model prices offers the model the run used; a bad price is named on its cell and nothing is saved.
  await page.goto("/settings/model-prices");
  await page.getByRole("button", { name: `Add OpenAI-compatible ${modelName}` }).click();
  // Added as the table's last row, the model filled in.
  const row = page.getByRole("table").getByRole("row").last();
  await expect(row.getByRole("textbox", { name: /^Model of row \d+/ })).toHaveValue(modelName);
  await expect(row.getByRole("combobox", { name: /^Provider of row \d+/ })).toHaveValue("openai_compatible");
  const input = row.getByRole("textbox", { name: /^Input price of row \d+/ });
  await input.fill("a dollar");
  await row.getByRole("textbox", { name: /^Output price of row \d+/ }).fill("2000");
  await page.getByRole("button", { name: "Save prices" }).click();
  await expect(input).toHaveAttribute("aria-invalid", "true");
  await expect(row.getByRole("alert")).toContainText("inputPerMillion: must be a price in US dollars per million tokens");
  await snap(page, testInfo, "model prices: a bad price named on its cell");
  await input.fill("1000");
  await page.getByRole("button", { name: "Save prices" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();
  await expect(page.getByRole("button", { name: `Add OpenAI-compatible ${modelName}` })).toHaveCount(0);
  expect(await blockingViolations(page, "model prices")).toEqual([]);
  await snap(page, testInfo, "model prices: saved");

  // 10 × $1,000 / M + 5 × $2,000 / M = $0.02, on the step and on the run.
  await page.goto(runUrl);
  await expect(page.getByTestId("run-cost")).toHaveText("$0.02");
  await page.getByRole("group", { name: /^Summariser, Agent, succeeded/ }).click();
  await expect(page.getByRole("complementary")).toContainText("10 tokens in, 5 out · 1 model call · $0.02");
  await snap(page, testInfo, "run view: the run's tokens and cost");

  await page.goto(`/runs?workflowId=${id}`);
  const listed = page.getByRole("row").filter({ has: page.getByRole("link", { name, exact: true }) });
  await expect(listed).toContainText("15");
  await expect(listed).toContainText("$0.02");
  await expect(page.getByTestId("runs-usage-total")).toHaveText("1 run · 15 tokens · $0.02 at today's prices");
  await expect(page.getByRole("link", { name: "Its last 30 days, charted" })).toHaveAttribute("href", `/workflows/${id}/activity`);
  await snap(page, testInfo, "runs list: tokens, cost and the filter's total");

  // The workflow's Activity, from its editor's toolbar.
  await page.goto(`/workflows/${id}`);
  await page.getByRole("link", { name: "Activity" }).click();
  await expect(page).toHaveURL(new RegExp(`/workflows/${id}/activity$`));
  await expect(page.getByTestId("activity-summary")).toHaveText("1 run, 1 succeeded, 0 failed · 15 tokens · $0.02 at today’s prices");
  for (const chart of ["runs-per-day", "median-duration", "cost-per-day"]) await expect(page.getByTestId(`chart-${chart}`).locator(".recharts-wrapper > svg")).toBeVisible();
  // Today's bar in the cost chart is drawn (the other days have none).
  await expect(page.getByTestId("chart-cost-per-day").locator(".recharts-bar-rectangle path")).toHaveCount(1);
  await page.getByText("The figures as a table").click();
  const today = page.getByTestId("activity-table").getByRole("row").nth(1);
  await expect(today).toContainText("$0.02");
  await expect(today.getByRole("cell").first()).toHaveText("1");
  expect(await blockingViolations(page, "workflow activity")).toEqual([]);
  await snap(page, testInfo, "activity: the 30-day chart");
});
