import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures/test";
import { SCREEN_SIZES, sidewaysOverflow } from "./fixtures/accessibility";
import { decisionButton, pendingApprovalIds, runStatus, startRun } from "./fixtures/approvals";
import { cancelRun } from "./fixtures/cancel-run";
import { canvasCard, createWorkflow, readWorkspaceFile, snap, uniqueName, writeWorkflow } from "./fixtures/studio";

/**
 * The studio on a phone (390 × 844, touch) and at 200 % zoom (640 CSS px):
 * an approval decided from the inbox by touch with no page scrolling
 * sideways, the top navigation folded into a menu that works by touch and
 * by keyboard, and the editor's palette and inspector as drawers over a
 * canvas that keeps the width.
 */

async function expectNoSidewaysScroll(page: Page, where: string): Promise<void> {
  expect(await sidewaysOverflow(page), `${where} scrolls sideways`).toBe(0);
  // Nor does a list's own box: a table wider than its box hid its last column's buttons behind a sideways scroll.
  const boxes = await page.locator("[data-row-cards]").evaluateAll((elements) => elements.map((element) => element.scrollWidth - element.clientWidth));
  for (const overflow of boxes) expect(overflow, `${where}: a list's box scrolls sideways`).toBeLessThanOrEqual(0);
}

/** Every one of `locators` lies inside the screen's width. */
async function expectInsideWidth(page: Page, locators: Locator[], where: string): Promise<void> {
  const width = page.viewportSize()!.width;
  for (const locator of locators) {
    const box = (await locator.boundingBox())!;
    expect(box.x, `${where}: ${await locator.textContent()} starts on the screen`).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, `${where}: ${await locator.textContent()} ends on the screen`).toBeLessThanOrEqual(width);
  }
}

/** The zoom React Flow draws a canvas at (its viewport's scale). */
async function canvasZoom(canvas: Locator): Promise<number> {
  return canvas.locator(".react-flow__viewport").evaluate((viewport) => new DOMMatrix(getComputedStyle(viewport).transform).a);
}

/** `inner` lies wholly inside `outer` on the screen (to half a pixel, for fractional zooms): a card not cut at the canvas's edges. */
async function expectWithin(inner: Locator, outer: Locator, what: string): Promise<void> {
  const a = (await inner.boundingBox())!;
  const b = (await outer.boundingBox())!;
  expect(a.x, `${what}: left edge`).toBeGreaterThanOrEqual(b.x - 0.5);
  expect(a.y, `${what}: top edge`).toBeGreaterThanOrEqual(b.y - 0.5);
  expect(a.x + a.width, `${what}: right edge`).toBeLessThanOrEqual(b.x + b.width + 0.5);
  expect(a.y + a.height, `${what}: bottom edge`).toBeLessThanOrEqual(b.y + b.height + 0.5);
}

/** Waits for a panning view to bring `inner` wholly inside `outer`. */
async function expectComesWithin(inner: Locator, outer: Locator, what: string): Promise<void> {
  await expect(async () => expectWithin(inner, outer, what)).toPass({ timeout: 10_000 });
}

test.describe("on a phone", () => {
  test.use(SCREEN_SIZES.phone);

  test("approve a write from the inbox by touch, reached through the menu, and no page scrolls sideways", async ({ page, request }, testInfo) => {
    const name = uniqueName("Phone approval", testInfo);
    const fileName = `phone-${testInfo.testId.slice(0, 8)}.txt`;
    const message = "Approved on a phone.";
    const id = await createWorkflow(request, writeWorkflow(name, fileName));
    const runId = await startRun(request, id, { message });
    // A second run of the same workflow waits at the same step: its buttons must not share the first one's names.
    const otherRunId = await startRun(request, id, { message: "The other run." });
    await pendingApprovalIds(request, runId);
    await pendingApprovalIds(request, otherRunId);

    await page.goto("/workflows");
    await expect(page.getByRole("link", { name, exact: true })).toBeVisible();
    await expectNoSidewaysScroll(page, "the workflows list");
    // The name keeps the card's width: read in full, not cut to nothing.
    expect((await page.getByRole("link", { name, exact: true }).boundingBox())!.width).toBeGreaterThan(150);
    // The row's actions on the screen, in one line along the card's foot, not a ragged column.
    const row = page.getByRole("row").filter({ has: page.getByRole("link", { name, exact: true }) });
    const actions = ["Rename", "Duplicate", "Export", "Delete"].map((action) => row.getByRole("button", { name: `${action} ${name}` }));
    await expectInsideWidth(page, actions, "the workflow's actions");
    const tops = await Promise.all(actions.map(async (action) => (await action.boundingBox())!.y));
    expect(new Set(tops).size, "the actions share one line").toBe(1);
    await snap(page, testInfo, "phone: the workflows list");

    // The links are folded into the menu; the waiting approval shows on its button.
    const navigation = page.getByRole("navigation", { name: "Main" });
    await expect(navigation).toBeHidden();
    const menu = page.getByRole("button", { name: /^Menu/ });
    await expect(menu).toHaveAccessibleName(/^Menu\s*\d+ waiting$/);
    await menu.tap();
    await expect(menu).toHaveAttribute("aria-expanded", "true");
    await snap(page, testInfo, "phone: the menu open");
    await navigation.getByRole("link", { name: /^Inbox/ }).tap();
    await expect(page).toHaveURL(/\/inbox$/);
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await expect(navigation).toBeHidden();

    const card = page.getByRole("article").filter({ has: page.locator(`a[href="/runs/${runId}"]`) });
    const otherCard = page.getByRole("article").filter({ has: page.locator(`a[href="/runs/${otherRunId}"]`) });
    await expect(card.getByRole("group", { name: "Proposed change" })).toContainText(fileName);
    // Two runs of one workflow, the same step and file: each card's buttons name their own run.
    const firstName = await decisionButton(card, "Approve once").getAttribute("aria-label");
    const otherName = await decisionButton(otherCard, "Approve once").getAttribute("aria-label");
    expect(firstName).toMatch(new RegExp(`, run #${runId.slice(-6)}$`));
    expect(otherName).toMatch(new RegExp(`, run #${otherRunId.slice(-6)}$`));
    expect(firstName).not.toBe(otherName);

    await expectNoSidewaysScroll(page, "the inbox");
    const approve = decisionButton(card, "Approve once");
    await approve.scrollIntoViewIfNeeded();
    const box = (await approve.boundingBox())!;
    expect(box.x + box.width, "Approve once lies inside the screen's width").toBeLessThanOrEqual(390);
    await snap(page, testInfo, "phone: the inbox card to approve");
    await approve.tap();
    await expect(card.getByRole("status")).toHaveText(/^Approved once( by [^.]+)?\. The write goes ahead\.$/);
    await expect.poll(() => runStatus(request, runId), { timeout: 30_000 }).toBe("succeeded");
    expect(readWorkspaceFile(fileName)).toBe(message);
    await expectNoSidewaysScroll(page, "the inbox after the decision");

    // The run view leads with its steps and timeline, in words; the canvas follows at a readable zoom, its first card whole.
    await page.goto(`/runs/${runId}`);
    const runCanvas = page.getByRole("region", { name: /^The workflow's canvas/ });
    await expect(runCanvas.getByRole("group", { name: /^Run inputs,.*succeeded$/ })).toBeVisible();
    const details = (await page.getByRole("complementary", { name: "Node details" }).boundingBox())!;
    const timeline = (await page.getByRole("region", { name: "Timeline" }).boundingBox())!;
    const canvasBox = (await runCanvas.boundingBox())!;
    expect(details.y, "the step list comes before the canvas").toBeLessThan(canvasBox.y);
    expect(timeline.y, "the timeline comes before the canvas").toBeLessThan(canvasBox.y);
    expect(await canvasZoom(runCanvas), "the run's canvas opens at a readable zoom").toBeGreaterThanOrEqual(0.5);
    await expectWithin(runCanvas.getByRole("group", { name: /^Run inputs,.*succeeded$/ }), runCanvas, "the first card");
    // The rest of the run is a press away, and the arrow says so.
    const later = runCanvas.getByRole("button", { name: "Show the cards to the right" });
    await later.scrollIntoViewIfNeeded();
    await later.tap();
    await expectComesWithin(runCanvas.getByRole("group", { name: /^Output,.*succeeded$/ }), runCanvas, "the last card, after the arrow");
    await expectNoSidewaysScroll(page, "the run view");
    await snap(page, testInfo, "phone: the run view after approval");

    // The runs list: a card per run, its Open on the screen, and its name opens the run, not the editor.
    await page.goto("/runs");
    const runCard = page.getByRole("row").filter({ has: page.locator(`a[href="/runs/${runId}"]`) });
    await expect(runCard).toBeVisible();
    await expectNoSidewaysScroll(page, "the runs list");
    await expectInsideWidth(page, [runCard.getByRole("link", { name: /^Open the run of/ })], "the run's Open");
    // The other run still waits: its card has Cancel on the screen, and a tap cancels it.
    const waitingCard = page.getByRole("row").filter({ has: page.locator(`a[href="/runs/${otherRunId}"]`) });
    const cancel = waitingCard.getByRole("button", { name: /^Cancel the run of/ });
    await expectInsideWidth(page, [cancel], "the waiting run's Cancel");
    await snap(page, testInfo, "phone: the runs list");
    await cancel.tap();
    await page.getByRole("dialog", { name: "Cancel this run?" }).getByRole("button", { name: "Cancel run" }).tap();
    await expect.poll(() => runStatus(request, otherRunId)).toBe("cancelled");
    await runCard.getByRole("link", { name, exact: true }).tap();
    await expect(page).toHaveURL(new RegExp(`/runs/${runId}$`));
  });

  test("the editor: one row of header, a readable first view with arrows along, a tap opens a card's settings, the Nodes drawer reads whole", async ({ page, request }, testInfo) => {
    const id = await createWorkflow(request, writeWorkflow(uniqueName("Phone editor", testInfo), `phone-editor-${testInfo.testId.slice(0, 8)}.txt`));
    await page.goto(`/workflows/${id}`);
    await expect(page.getByText("Ready to run")).toBeVisible();
    await expectNoSidewaysScroll(page, "the editor");
    // The canvas keeps the whole width and most of the height: the header and the toolbar fold into one row and More.
    const canvas = page.getByRole("application", { name: "Workflow canvas" });
    const canvasArea = (await canvas.boundingBox())!;
    expect(canvasArea.width).toBe(390);
    expect(canvasArea.y, "the header and toolbar's height").toBeLessThanOrEqual(120);
    expect(await canvasZoom(canvas), "the editor opens at a readable zoom").toBeGreaterThanOrEqual(0.5);
    await expectWithin(canvasCard(canvas, "Run inputs"), canvas, "the first card");
    await snap(page, testInfo, "phone: the editor, its drawers closed");
    await canvas.getByRole("button", { name: "Show the cards to the right" }).tap();
    await expectComesWithin(canvasCard(canvas, "Output"), canvas, "the last card, after the arrow");

    // More holds the rest of the toolbar; Fit view keeps a readable zoom.
    const more = page.getByRole("button", { name: "More commands" });
    await more.tap();
    await expect(more).toHaveAttribute("aria-expanded", "true");
    await snap(page, testInfo, "phone: the editor's More commands");
    await page.getByRole("button", { name: "Fit view", exact: true }).tap();
    await expect(more).toHaveAttribute("aria-expanded", "false");
    await expect.poll(() => canvasZoom(canvas), { message: "Fit view's zoom" }).toBeGreaterThanOrEqual(0.5);

    // A tap on a card opens its settings in the inspector drawer.
    await canvasCard(canvas, "Write a File").tap();
    const inspector = page.getByRole("complementary", { name: "Inspector" });
    await expect(inspector).toBeVisible();
    await expect(page.getByRole("button", { name: "Close the inspector" })).toBeFocused();
    await snap(page, testInfo, "phone: the inspector opened by a tap");
    await page.getByRole("button", { name: "Close the inspector" }).tap();
    await expect(inspector).toBeHidden();
    // Enter on a focused card opens it the same way (a keyboard beside the phone, or a switch device).
    await canvasCard(canvas, "Write a File").focus();
    await page.keyboard.press("Enter");
    await expect(inspector).toBeVisible();
    await expect(page.getByRole("button", { name: "Close the inspector" })).toBeFocused();
    await page.getByRole("button", { name: "Close the inspector" }).tap();

    // The Nodes drawer: every help line whole, and its foot speaks of tapping, not of Enter.
    await page.getByRole("button", { name: "Nodes", exact: true }).tap();
    const palette = page.getByRole("navigation", { name: "Node palette" });
    await expect(palette.getByText("Tap a node to add it in the middle of the canvas.")).toBeVisible();
    await expect(palette.getByText(/press Enter/)).toBeHidden();
    const cut = await palette.locator("button span span").evaluateAll((spans) => spans.filter((span) => span.scrollWidth > span.clientWidth).map((span) => span.textContent));
    expect(cut, "help lines cut short").toEqual([]);
    await snap(page, testInfo, "phone: the Nodes drawer");
  });

  test("the secrets list is a card per secret with its buttons on the screen, and Security offers no empty sign-out", async ({ page, request }, testInfo) => {
    const secretName = `PHONE_${testInfo.testId.slice(0, 8).toUpperCase()}_REPORTING_DATABASE_URL`;
    expect((await request.post("/api/secrets", { data: { name: secretName, value: "planted-phone-value", description: "The reporting database, read only, for the weekly sales report" } })).status()).toBe(201);
    await page.goto("/settings/secrets");
    const row = page.getByRole("row").filter({ has: page.getByRole("rowheader", { name: secretName }) });
    await expect(row).toBeVisible();
    await expectNoSidewaysScroll(page, "the secrets list");
    await expectInsideWidth(
      page,
      [row.getByRole("button", { name: `Replace value of ${secretName}` }), row.getByRole("button", { name: `Edit ${secretName}` }), row.getByRole("button", { name: `Delete ${secretName}` })],
      "the secret's buttons",
    );
    await snap(page, testInfo, "phone: the secrets list");
    await row.getByRole("button", { name: `Delete ${secretName}` }).tap();
    await page.getByRole("dialog").getByRole("button", { name: "Delete secret" }).tap();
    await expect(row).toHaveCount(0);

    await page.goto("/settings/security");
    await expect(page.getByRole("heading", { name: "Signed-in browsers" })).toBeVisible();
    await expect(page.getByRole("button", { name: /^Sign out 0 others$/ })).toHaveCount(0);
    await expectNoSidewaysScroll(page, "the security page");
    await snap(page, testInfo, "phone: the security page");
  });

  test("the menu opens and closes by keyboard, and focus comes back to its button", async ({ page }) => {
    await page.goto("/runs");
    const menu = page.getByRole("button", { name: /^Menu/ });
    await menu.focus();
    await page.keyboard.press("Enter");
    await expect(menu).toHaveAttribute("aria-expanded", "true");
    await page.keyboard.press("Tab");
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Workflows" })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await expect(menu).toBeFocused();
    await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();

    // A press outside closes it too (near the bottom of the screen: the open menu covers the top).
    await menu.tap();
    await expect(menu).toHaveAttribute("aria-expanded", "true");
    await page.touchscreen.tap(195, 820);
    await expect(menu).toHaveAttribute("aria-expanded", "false");
  });
});

test.describe("at 200 % zoom", () => {
  test.use(SCREEN_SIZES["200% zoom"]);

  test("the palette and the inspector are drawers: focus goes in, Escape gives it back, adding a node shows the canvas", async ({ page, request }, testInfo) => {
    const id = await createWorkflow(request, writeWorkflow(uniqueName("Zoomed editor", testInfo), "zoomed.txt"));
    await page.goto(`/workflows/${id}`);
    await expect(page.getByText("Ready to run")).toBeVisible();
    const canvas = page.getByRole("application", { name: "Workflow canvas" });
    expect((await canvas.boundingBox())!.width).toBe(640);
    await expectNoSidewaysScroll(page, "the editor");
    await expect(page.getByRole("navigation", { name: "Node palette" })).toBeHidden();
    await expect(page.getByRole("complementary", { name: "Inspector" })).toBeHidden();

    // The palette: opened by its button, focus on its Close, Escape shuts it and focus is back on the button.
    const nodes = page.getByRole("button", { name: "Nodes", exact: true });
    await expect(nodes).toHaveAttribute("aria-expanded", "false");
    await nodes.focus();
    await page.keyboard.press("Enter");
    await expect(nodes).toHaveAttribute("aria-expanded", "true");
    await expect(page.getByRole("button", { name: "Close the node list" })).toBeFocused();
    await expect(page.getByRole("navigation", { name: "Node palette" })).toBeVisible();
    await snap(page, testInfo, "200 % zoom: the palette drawer");
    await page.keyboard.press("Escape");
    await expect(nodes).toHaveAttribute("aria-expanded", "false");
    await expect(nodes).toBeFocused();
    await expect(page.getByRole("navigation", { name: "Node palette" })).toBeHidden();

    // Adding a node from the drawer shuts it, to show the card added.
    await page.keyboard.press("Enter");
    await page.getByRole("navigation", { name: "Node palette" }).getByRole("button", { name: /^Router/ }).click();
    await expect(nodes).toHaveAttribute("aria-expanded", "false");
    await expect(nodes).toBeFocused();
    await expect(canvas.getByRole("group", { name: /^Router/ })).toBeVisible();

    // The inspector: a click on a card opens its settings there (as Enter on it does), closed with its Close button.
    await canvas.getByRole("group", { name: /^Write a File/ }).click();
    const inspectorToggle = page.getByRole("button", { name: "Inspector", exact: true });
    await expect(inspectorToggle).toHaveAttribute("aria-expanded", "true");
    const inspector = page.getByRole("complementary", { name: "Inspector" });
    await expect(inspector.getByRole("heading", { name: "Connections" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Close the inspector" })).toBeFocused();
    await snap(page, testInfo, "200 % zoom: the inspector drawer");
    await page.getByRole("button", { name: "Close the inspector" }).click();
    await expect(inspector).toBeHidden();
    await expect(inspectorToggle).toBeFocused();
  });
});

test("on a laptop the palette and the inspector are side panels beside the canvas, with no drawer buttons", async ({ page, request }, testInfo) => {
  await page.setViewportSize(SCREEN_SIZES.desktop.viewport);
  const id = await createWorkflow(request, writeWorkflow(uniqueName("Laptop editor", testInfo), "laptop.txt"));
  await page.goto(`/workflows/${id}`);
  await expect(page.getByText("Ready to run")).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Node palette" })).toBeVisible();
  await expect(page.getByRole("complementary", { name: "Inspector" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Nodes", exact: true })).toBeHidden();
  await expect(page.getByRole("button", { name: /^Menu/ })).toBeHidden();
  await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
  const canvas = (await page.getByRole("application", { name: "Workflow canvas" }).boundingBox())!;
  // 1280 less the palette (256) and the inspector (384).
  expect(canvas.width).toBe(640);
});

test("at 1440 px the run view's canvas shows every card of the run whole, with room around them", async ({ page, request }, testInfo) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const id = await createWorkflow(request, writeWorkflow(uniqueName("Wide run", testInfo), `wide-${testInfo.testId.slice(0, 8)}.txt`));
  const runId = await startRun(request, id, { message: "Seen whole." });
  await pendingApprovalIds(request, runId);
  await page.goto(`/runs/${runId}`);
  const canvas = page.getByRole("region", { name: /^The workflow's canvas/ });
  await expect(canvas.getByRole("group", { name: /^Write a File,.*waiting for you$/ })).toBeVisible();
  expect(await canvasZoom(canvas)).toBeGreaterThanOrEqual(0.6);
  for (const [title, step] of [["Run inputs", /^Run inputs,/], ["Write a File", /^Write a File,/], ["Output", /^Output,/]] as const) {
    await expectWithin(canvas.getByRole("group", { name: step }), canvas, title);
  }
  await expect(canvas.getByRole("button", { name: /^Show the cards to the/ })).toHaveCount(0);
  await snap(page, testInfo, "1440 px: the run view's canvas");
  await cancelRun(request, runId);
});
