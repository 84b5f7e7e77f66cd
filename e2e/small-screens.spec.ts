import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures/test";
import { SCREEN_SIZES, sidewaysOverflow } from "./fixtures/accessibility";
import { decisionButton, pendingApprovalIds, runStatus, startRun } from "./fixtures/approvals";
import { createWorkflow, readWorkspaceFile, snap, uniqueName, writeWorkflow } from "./fixtures/studio";

/**
 * The studio on a phone (390 × 844, touch) and at 200 % zoom (640 CSS px):
 * an approval decided from the inbox by touch with no page scrolling
 * sideways, the top navigation folded into a menu that works by touch and
 * by keyboard, and the editor's palette and inspector as drawers over a
 * canvas that keeps the width.
 */

async function expectNoSidewaysScroll(page: Page, where: string): Promise<void> {
  expect(await sidewaysOverflow(page), `${where} scrolls sideways`).toBe(0);
}

test.describe("on a phone", () => {
  test.use(SCREEN_SIZES.phone);

  test("approve a write from the inbox by touch, reached through the menu, and no page scrolls sideways", async ({ page, request }, testInfo) => {
    const name = uniqueName("Phone approval", testInfo);
    const fileName = `phone-${testInfo.testId.slice(0, 8)}.txt`;
    const message = "Approved on a phone.";
    const id = await createWorkflow(request, writeWorkflow(name, fileName));
    const runId = await startRun(request, id, { message });
    await pendingApprovalIds(request, runId);

    await page.goto("/workflows");
    await expect(page.getByRole("link", { name, exact: true })).toBeVisible();
    await expectNoSidewaysScroll(page, "the workflows list");
    // The name column keeps the width: the name is read in full, not cut to nothing.
    expect((await page.getByRole("link", { name, exact: true }).boundingBox())!.width).toBeGreaterThan(150);

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

    const card = page.getByRole("article").filter({ hasText: name });
    await expect(card.getByRole("group", { name: "Proposed change" })).toContainText(fileName);
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

    await page.goto(`/runs/${runId}`);
    await expect(page.getByRole("group", { name: /^Write a File,.*succeeded$/ })).toBeVisible();
    // The whole run on the phone's canvas: no card cut off at its edges.
    for (const step of [/^Run inputs,.*succeeded$/, /^Write a File,.*succeeded$/, /^Output,.*succeeded$/]) {
      await expect(page.getByRole("group", { name: step })).toBeInViewport({ ratio: 1 });
    }
    await expectNoSidewaysScroll(page, "the run view");
    await snap(page, testInfo, "phone: the run view after approval");

    await page.goto("/runs");
    await expect(page.locator(`a[href="/runs/${runId}"]`)).toBeAttached();
    await expectNoSidewaysScroll(page, "the runs list");

    await page.goto(`/workflows/${id}`);
    await expect(page.getByText("Ready to run")).toBeVisible();
    await expectNoSidewaysScroll(page, "the editor");
    // The canvas keeps the whole width; the panels wait behind their buttons.
    expect((await page.getByRole("application", { name: "Workflow canvas" }).boundingBox())!.width).toBe(390);
    await snap(page, testInfo, "phone: the editor, its drawers closed");
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

    // The inspector: the selected card's settings, closed with its Close button.
    await canvas.getByRole("group", { name: /^Write a File/ }).click();
    const inspectorToggle = page.getByRole("button", { name: "Inspector", exact: true });
    await inspectorToggle.click();
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
