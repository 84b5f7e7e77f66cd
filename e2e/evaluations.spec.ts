import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures/test";
import { blockingViolations, COLOUR_RULES, SCREEN_SIZES, sidewaysOverflow, switchColorScheme } from "./fixtures/accessibility";
import { createWorkflow, snap, uniqueName, whenHydrated } from "./fixtures/studio";

/**
 * Evaluating two versions of a workflow over a 20-row dataset with three scorers, as a person does it: from the
 * Activity page to Evaluations, each started from the form (a scorer's mistake named on its field first), followed
 * to its end, opened (averages, rows, a row's run), then both compared side by side: averages with the difference,
 * a chart, the rows whose verdict changed.
 */

const greeter = (name: string, greeting: string) => ({
  name,
  nodes: [
    { id: "in", kind: "input" as const, position: { x: 0, y: 0 }, fields: [{ name: "who", type: "string" as const, required: true }] },
    { id: "out", kind: "output" as const, position: { x: 300, y: 0 }, value: `${greeting} {{ inputs.who }}` },
  ],
  edges: [{ id: "in-out", source: "in", target: "out" }],
});

/** Rows 1-10 expect "Hello", 11-15 "Hi", 16-20 "Hey": version 1 (Hello) passes the first ten, version 2 (Hi) the next five. */
const ROWS = Array.from({ length: 20 }, (_, index) => {
  const who = `P${index + 1}`;
  const greeting = index < 10 ? "Hello" : index < 15 ? "Hi" : "Hey";
  return JSON.stringify({ inputs: { who }, expected: `${greeting} ${who}` });
}).join("\n");

/**
 * axe-core (WCAG 2.2 AA) on the page as it stands, and its colours again in the dark theme: no serious or critical
 * finding. And 200 % zoom's width: the page does not scroll sideways (its tables scroll within themselves).
 */
async function accessible(page: Page, where: string): Promise<void> {
  expect(await blockingViolations(page, where)).toEqual([]);
  await switchColorScheme(page, "dark");
  expect(await blockingViolations(page, `${where} (dark)`, COLOUR_RULES)).toEqual([]);
  await switchColorScheme(page, "light");
  const laptop = page.viewportSize()!;
  await page.setViewportSize(SCREEN_SIZES["200% zoom"].viewport);
  await expect.poll(() => sidewaysOverflow(page), { message: `${where} scrolls sideways at 640 px` }).toBe(0);
  await page.setViewportSize(laptop);
}

test("two versions are evaluated over 20 rows with three scorers and compared side by side", async ({ page, request }, testInfo) => {
  test.setTimeout(180_000);
  const name = uniqueName("Greeter evaluated", testInfo);
  const id = await createWorkflow(request, greeter(name, "Hello"));
  expect((await request.put(`/api/workflows/${id}`, { data: greeter(name, "Hi") })).status()).toBe(200);
  const upload = await request.post(`/api/workflows/${id}/datasets?name=Twenty&format=jsonl`, { headers: { "content-type": "application/x-ndjson" }, data: ROWS });
  expect(upload.status(), await upload.text()).toBe(201);

  // Reached from the workflow's Activity page.
  await page.goto(`/workflows/${id}/activity`);
  await page.getByRole("link", { name: "Evaluations", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Evaluations" })).toBeVisible();
  await expect(page.getByText("No evaluations yet")).toBeVisible();

  const form = page.getByRole("form", { name: "Start an evaluation" });
  await whenHydrated(form.getByRole("button", { name: "Start the evaluation" }));
  await form.getByRole("combobox", { name: "Version", exact: true }).selectOption({ label: "Version 1" });
  await form.getByLabel("Rows at once").fill("4");
  // Three scorers: exact match (there from the start), contains and a regular expression.
  await form.getByRole("button", { name: "Add a scorer" }).click();
  await form.locator("#scorer-1-text").fill("P");
  await form.getByRole("button", { name: "Add a scorer" }).click();
  await form.locator("#scorer-2-kind").selectOption({ label: "Regular expression" });
  await form.getByRole("button", { name: "Start the evaluation" }).click();
  // Checked here with the API's schema: the empty pattern is named on its field, and nothing starts.
  await expect(form.getByText("write a pattern")).toBeVisible();
  await expect(page.getByTestId("evaluation-row")).toHaveCount(0);
  await snap(page, testInfo, "evaluation-form-error");
  await accessible(page, "evaluation form with an error");
  await form.locator("#scorer-2-pattern").fill("^(Hello|Hi) P\\d+$");
  await form.getByRole("button", { name: "Start the evaluation" }).click();
  await expect(page.getByTestId("evaluation-row")).toHaveCount(1);

  // The second version, with the same scorers.
  await form.getByRole("combobox", { name: "Version", exact: true }).selectOption({ label: "Version 2" });
  await form.getByRole("button", { name: "Start the evaluation" }).click();
  await expect(page.getByTestId("evaluation-row")).toHaveCount(2);
  const rows = page.getByTestId("evaluation-row");
  for (const index of [0, 1]) await expect(rows.nth(index)).toContainText("20 of 20 rows done", { timeout: 120_000 });
  await expect(rows.filter({ hasText: "Version 1" })).toContainText("Exact match: 50%");
  await expect(rows.filter({ hasText: "Version 2" })).toContainText("Exact match: 25%");
  await snap(page, testInfo, "evaluations-list");
  await accessible(page, "evaluations");

  // One evaluation: averages, rows with output, expected and verdicts; a row's run opens.
  await rows.filter({ hasText: "Version 1" }).getByRole("link", { name: /^Open the evaluation of version 1/ }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Version 1 on Twenty" })).toBeVisible();
  await expect(page.getByTestId("scorer-average")).toHaveCount(3);
  await expect(page.getByTestId("scorer-average").filter({ hasText: "Exact match" })).toContainText("50%");
  await expect(page.getByTestId("scorer-average").filter({ hasText: "Exact match" })).toContainText("10 passed · 10 failed");
  await expect(page.getByTestId("result-row")).toHaveCount(20);
  await expect(page.getByTestId("result-row").nth(10)).toContainText("Exact match: failed");
  await snap(page, testInfo, "evaluation");
  await accessible(page, "evaluation");
  await page.getByRole("link", { name: "Open the run of row 1", exact: true }).click();
  await expect(page.getByTestId("run-trigger")).toHaveText("Evaluation: row 1");
  await page.getByRole("link", { name: "its evaluation" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Version 1 on Twenty" })).toBeVisible();

  // The two side by side.
  await page.getByRole("link", { name: "evaluations", exact: true }).click();
  await page.getByRole("checkbox", { name: /^Compare version 1/ }).check();
  await page.getByRole("checkbox", { name: /^Compare version 2/ }).check();
  await page.getByRole("link", { name: "Compare the two" }).click();
  const averages = page.getByTestId("comparison-averages");
  await expect(averages.getByRole("row", { name: /Exact match/ })).toContainText("50%25%−25 pts");
  await expect(averages.getByRole("row", { name: /Contains/ })).toContainText("100%100%±0 pts");
  await expect(averages.getByRole("row", { name: /Regular expression/ })).toContainText("100%100%±0 pts");
  await expect(page.getByTestId("comparison-chart").locator(".recharts-bar-rectangle").first()).toBeVisible();
  await expect(page.getByTestId("comparison-row")).toHaveCount(20);
  await page.getByLabel("Only rows whose verdict changed (15)").check();
  await expect(page.getByTestId("comparison-row")).toHaveCount(15);
  const changed = page.getByTestId("comparison-row").first();
  await expect(changed).toContainText("Hello P1");
  await expect(changed).toContainText("Hi P1");
  await snap(page, testInfo, "evaluation-comparison");
  await accessible(page, "comparison");
  await changed.getByRole("link", { name: /^Open the run of row 1 in Version 2/ }).click();
  await expect(page.getByTestId("run-trigger")).toHaveText("Evaluation: row 1");
});
