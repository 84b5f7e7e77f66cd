import { expect, test } from "./fixtures/test";
import { runStatus, startRun } from "./fixtures/approvals";
import { createWorkflow, snap, uniqueName, whenHydrated } from "./fixtures/studio";

/**
 * A big run's page stays light: from 200 steps its HTML holds no step's output (each step's result is fetched when
 * its node is opened), the canvas draws its cards in the browser, and opening a node shows its result as on any run.
 */

const STEPS = 210;

test("a run of 210 steps: the page leaves the outputs out of its HTML and shows a step's result when its node is opened", async ({ page, request }, testInfo) => {
  const ids = Array.from({ length: STEPS }, (_, index) => `step${index}`);
  const workflowId = await createWorkflow(request, {
    name: uniqueName("Many steps", testInfo),
    nodes: [
      { id: "input", kind: "input", fields: [] },
      ...ids.map((id, index) => ({ id, kind: "code" as const, label: `Step ${index}`, code: `return "result-" + ${index} * 7;` })),
      { id: "output", kind: "output", value: "done" },
    ],
    edges: ["input", ...ids, "output"].slice(1).map((target, index, rest) => ({ id: `e${index}`, source: index === 0 ? "input" : rest[index - 1]!, target })),
  });
  const runId = await startRun(request, workflowId);
  await expect.poll(() => runStatus(request, runId), { timeout: 60_000 }).toBe("succeeded");

  const html = await (await request.get(`/runs/${runId}`)).text();
  // Step 17's result ("result-119") is not in the page, though its code is (in the definition).
  expect(html).not.toContain("result-119");
  expect(html).toContain("17 * 7");
  expect(html).toContain("Many steps");

  await page.goto(`/runs/${runId}`);
  await expect(page.locator(".react-flow__node").first()).toBeVisible();
  const picker = page.getByLabel("Show node");
  await whenHydrated(picker);
  await picker.selectOption("step17");
  await expect(page.getByText("result-119").first()).toBeVisible();
  await picker.selectOption("step200");
  await expect(page.getByText("result-1400").first()).toBeVisible();
  await snap(page, testInfo, "a big run's step result, fetched when opened");
});
