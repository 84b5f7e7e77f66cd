import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures/test";
import { pendingApprovalIds, startRun } from "./fixtures/approvals";
import { cancelRun } from "./fixtures/cancel-run";
import { createWorkflow, uniqueName, writeWorkflow } from "./fixtures/studio";
import { stillBox } from "./fixtures/still";

/**
 * Targets a finger can hit (WCAG 2.5.8: 24 × 24 CSS px): the cards' connection
 * dots, drawn 12 px wide, take the pointer over 24 px and connect from there;
 * the inspector's Fixed / From… toggles and the approval card's Arguments
 * toggle are 24 px tall. And nothing moves for a person who asked for less
 * motion: no pulsing status dot, no flowing edge.
 */

async function expectTarget(locator: Locator, what: string): Promise<void> {
  const box = (await locator.boundingBox())!;
  expect(box.height, `${what}: height`).toBeGreaterThanOrEqual(24);
  expect(box.width, `${what}: width`).toBeGreaterThanOrEqual(24);
}

/** The centre of a connection dot on the screen, once the canvas has stopped fitting its view. */
async function centreOf(page: Page, title: string): Promise<{ x: number; y: number }> {
  const box = await stillBox(page.getByTitle(title, { exact: true }));
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

test("a connection dot takes the pointer 10 px from its centre, and a connection dragged from there is made", async ({ page, request }, testInfo) => {
  const definition = writeWorkflow(uniqueName("Wide dots", testInfo), "dots.txt");
  const id = await createWorkflow(request, { ...definition, edges: [] });
  await page.goto(`/workflows/${id}`);
  const canvas = page.getByRole("application", { name: "Workflow canvas" });
  await expect(canvas.getByRole("group", { name: /^Write a File/ })).toBeVisible();

  const source = await centreOf(page, "Output of Run inputs");
  const dot = await page.getByTitle("Output of Run inputs", { exact: true }).boundingBox();
  expect(dot!.width, "the dot itself is still drawn small").toBeLessThan(16);
  for (const [dx, dy] of [
    [10, 10],
    [-10, -10],
    [10, -10],
    [-10, 10],
  ] as const) {
    const hit = await page.evaluate(
      ({ x, y }) => document.elementFromPoint(x, y)?.closest(".react-flow__handle")?.getAttribute("title") ?? null,
      { x: source.x + dx, y: source.y + dy },
    );
    expect(hit, `the point ${dx}, ${dy} from the dot's centre`).toBe("Output of Run inputs");
  }

  const target = await centreOf(page, "Input of Write a File");
  await page.mouse.move(source.x + 10, source.y + 10);
  await page.mouse.down();
  await page.mouse.move(target.x - 10, target.y + 10, { steps: 8 });
  await page.mouse.up();
  await expect(canvas.getByRole("group", { name: /^Connection from Run inputs to Write a File$/ })).toBeAttached();
});

test("the inspector's Fixed / From… toggles and the approval card's Arguments toggle are at least 24 px", async ({ page, request }, testInfo) => {
  const name = uniqueName("Big toggles", testInfo);
  const id = await createWorkflow(request, writeWorkflow(name, `toggles-${testInfo.testId.slice(0, 8)}.txt`));
  await page.goto(`/workflows/${id}`);
  await page.getByRole("application", { name: "Workflow canvas" }).getByRole("group", { name: /^Write a File/ }).click();
  const inspector = page.getByRole("complementary", { name: "Inspector" });
  const toggles = inspector.getByRole("group", { name: /^How .+ is set$/ });
  await expect(toggles.first()).toBeVisible();
  for (const group of await toggles.all()) {
    const groupName = await group.getAttribute("aria-label");
    await expectTarget(group.getByRole("button", { name: "Fixed" }), `${groupName}: Fixed`);
    await expectTarget(group.getByRole("button", { name: "From…" }), `${groupName}: From…`);
  }

  const runId = await startRun(request, id, { message: "Toggles." });
  await pendingApprovalIds(request, runId);
  await page.goto("/inbox");
  const card = page.getByRole("article").filter({ hasText: name });
  const argumentsToggle = card.locator("summary").filter({ hasText: "Arguments" });
  await expectTarget(argumentsToggle, "Arguments");
  await argumentsToggle.click();
  await expect(card.getByRole("definition").filter({ hasText: "Toggles." })).toBeVisible();
  await cancelRun(request, runId);
});

test("with reduced motion asked for, the waiting run's status dots stop pulsing and its edge stops flowing", async ({ page, request }, testInfo) => {
  const id = await createWorkflow(request, writeWorkflow(uniqueName("Still", testInfo), `still-${testInfo.testId.slice(0, 8)}.txt`));
  const runId = await startRun(request, id, { message: "Hold still." });
  await pendingApprovalIds(request, runId);
  await page.goto(`/runs/${runId}`);
  await expect(page.getByRole("group", { name: /^Write a File,.*waiting for you$/ })).toBeVisible();
  const flowingEdge = page.locator(".react-flow__edge.animated path.react-flow__edge-path");
  await expect(flowingEdge).toHaveCount(1);
  const running = () => page.evaluate(() => document.getAnimations().filter((animation) => animation.playState === "running").length);
  const edgeAnimation = () => flowingEdge.evaluate((path) => getComputedStyle(path).animationName);

  // Without the preference it moves: the checks below can fail.
  await page.emulateMedia({ reducedMotion: "no-preference" });
  await expect.poll(running).toBeGreaterThan(0);
  expect(await edgeAnimation()).not.toBe("none");

  await page.emulateMedia({ reducedMotion: "reduce" });
  await expect.poll(running).toBe(0);
  expect(await edgeAnimation()).toBe("none");
  expect(await flowingEdge.evaluate((path) => getComputedStyle(path).strokeDasharray)).toBe("none");
  await cancelRun(request, runId);
});
