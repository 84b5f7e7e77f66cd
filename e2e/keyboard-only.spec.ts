import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures/test";
import { canvasCard, createWorkflow, readWorkspaceFile, snap, uniqueName, workspace, writeWorkflow } from "./fixtures/studio";
import { startRun } from "./fixtures/approvals";
import { tabTo } from "./fixtures/keyboard";

/**
 * A person who works by keyboard alone: no pointer event reaches the page in
 * these tests (counted in the page), every control is reached with Tab and
 * used with Enter, arrows or typing, and after each action focus is put
 * somewhere meaningful instead of falling to the page's body.
 */

/** Counts every trusted pointer, mouse and touch event, so a test can prove it used none. */
async function countPointerEvents(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const counted = window as unknown as { pointerEvents: number };
    counted.pointerEvents = 0;
    for (const type of ["pointerdown", "pointerup", "mousedown", "mouseup", "touchstart", "wheel"]) {
      window.addEventListener(type, (event) => {
        if (event.isTrusted) counted.pointerEvents += 1;
      }, { capture: true });
    }
  });
}

async function pointerEventsSeen(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { pointerEvents: number }).pointerEvents);
}

/** Chooses an option of a focused native select with the arrow keys (Chromium changes a closed select's value on ArrowDown). */
async function chooseWithArrows(page: Page, select: Locator, label: string): Promise<void> {
  await expect(select).toBeFocused();
  for (let presses = 0; presses < 20; presses += 1) {
    if ((await select.locator("option:checked").textContent())?.trim() === label) return;
    await page.keyboard.press("ArrowDown");
  }
  await expect(select.locator("option:checked")).toHaveText(label);
}

/** Ctrl+K, the node's title typed, Enter: its card comes into view with focus. */
async function goToNode(page: Page, title: string): Promise<void> {
  await page.keyboard.press("Control+k");
  const dialog = page.getByRole("dialog", { name: "Go to node" });
  await expect(dialog.getByRole("combobox", { name: "Find a node" })).toBeFocused();
  await page.keyboard.type(title);
  await expect(dialog.getByRole("option", { selected: true })).toHaveText(new RegExp(`^${title}(,|$)`));
  await page.keyboard.press("Enter");
  await expect(dialog).toBeHidden();
}

const canvasOf = (page: Page) => page.getByRole("application", { name: "Workflow canvas" });

test("create a workflow, add and connect nodes, fill its form, save, run and approve it, all by keyboard", async ({ page }, testInfo) => {
  await countPointerEvents(page);
  const name = uniqueName("Keyboard only", testInfo);
  const fileName = `keyboard-${testInfo.testId.slice(0, 8)}.txt`;

  // The list: New workflow, a name typed, Enter.
  await page.goto("/workflows");
  await tabTo(page, page.getByRole("button", { name: "New workflow" }).first());
  await page.keyboard.press("Enter");
  const create = page.getByRole("dialog", { name: "New workflow" });
  await expect(create.getByRole("textbox", { name: "Name" })).toBeFocused();
  await page.keyboard.type(name);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/workflows\/[^/]+$/);
  const canvas = canvasOf(page);
  await expect(canvasCard(canvas, "Run inputs")).toBeVisible();
  // The editor opens with focus on the workflow's name (read out), not on the page's body.
  await expect(page.getByRole("heading", { level: 1, name })).toBeFocused();

  // The palette: search, then Enter on the tool adds it to the middle of the canvas, selected.
  const palette = page.getByRole("navigation", { name: "Node palette" });
  await tabTo(page, palette.getByRole("searchbox", { name: "Search tools" }));
  await page.keyboard.type("write a file");
  // The first match is the tool itself (its name may go on with the capabilities it matched by).
  await tabTo(page, palette.getByRole("button", { name: /^Write a File/ }).first());
  await page.keyboard.press("Enter");
  const writeInspector = page.getByRole("region", { name: "Inspector: Write a File" });
  await expect(writeInspector).toBeVisible();
  // Nothing moved focus to the new card: the live region says it was added.
  await expect(page.getByTestId("editor-announcement")).toHaveText("Added Write a File");

  // Its generated settings form and its inputs, typed into.
  await tabTo(page, writeInspector.getByRole("textbox", { name: "Folder", exact: true }));
  await page.keyboard.type(workspace());
  await tabTo(page, writeInspector.getByRole("textbox", { name: "Path", exact: true }));
  await page.keyboard.type(fileName);
  await tabTo(page, writeInspector.getByRole("textbox", { name: "Content", exact: true }));
  await page.keyboard.type("Written without a mouse.");

  // Its output to the Output node, through the inspector's Connect to….
  const writeConnections = writeInspector.getByRole("region", { name: "Connections" });
  await tabTo(page, writeConnections.getByRole("combobox", { name: "Connect to…" }));
  await chooseWithArrows(page, writeConnections.getByRole("combobox", { name: "Connect to…" }), "Output");
  await page.keyboard.press("Tab");
  await page.keyboard.press("Enter");
  await expect(writeConnections.getByRole("button", { name: "Remove the connection to Output", exact: true })).toBeVisible();

  // Run inputs, reached with Go to node: connected to the write instead of straight to the Output.
  await goToNode(page, "Run inputs");
  await expect(canvasCard(canvas, "Run inputs")).toBeFocused();
  const inputInspector = page.getByRole("region", { name: "Inspector: Run inputs" });
  const inputConnections = inputInspector.getByRole("region", { name: "Connections" });
  await tabTo(page, inputConnections.getByRole("combobox", { name: "Connect to…" }));
  await chooseWithArrows(page, inputConnections.getByRole("combobox", { name: "Connect to…" }), "Write a File");
  await page.keyboard.press("Tab");
  await page.keyboard.press("Enter");
  await tabTo(page, inputConnections.getByRole("button", { name: "Remove the connection to Output", exact: true }));
  await page.keyboard.press("Enter");
  await expect(canvas.getByRole("group", { name: /^Connection from Run inputs to Write a File$/ })).toBeAttached();
  await expect(canvas.getByRole("group", { name: /^Connection from Write a File to Output$/ })).toBeAttached();
  await expect(canvas.getByRole("group", { name: /^Connection from Run inputs to Output$/ })).toHaveCount(0);

  // Save with the button: the button is disabled once saved, so focus goes to the saved state, not the page's body.
  await expect(page.getByText("Ready to run", { exact: true })).toBeVisible();
  await tabTo(page, page.getByRole("button", { name: "Save", exact: true }), "Shift+Tab", 120);
  await page.keyboard.press("Enter");
  const saveState = page.getByTestId("save-state");
  await expect(saveState).toHaveText("Saved");
  await expect(saveState).toBeFocused();
  await snap(page, testInfo, "saved by keyboard, focus on the saved state");

  // Run, Enter on Start run, and the run view.
  await tabTo(page, page.getByRole("button", { name: "Run", exact: true }));
  await page.keyboard.press("Enter");
  const runDialog = page.getByRole("dialog", { name: "Run the workflow" });
  await tabTo(page, runDialog.getByRole("button", { name: "Start run" }));
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/runs\/[^/]+$/);

  // The write waits; a screen reader is told, and the approval is reached by Tab and decided by Enter.
  const announcement = page.getByTestId("run-announcement");
  await expect(announcement).toHaveText("Run waiting for you. 1 approval waits for you.");
  const approve = page.getByRole("button", { name: /^Approve once: Write a File/ });
  await tabTo(page, approve);
  await page.keyboard.press("Enter");
  const outcome = page.getByTestId("approval-outcome");
  await expect(outcome).toHaveText(/^Approved once/);
  // The outcome stays, with focus, after the run's own events say the approval is decided.
  await expect(announcement).toHaveText("Run succeeded.");
  await expect(outcome).toBeFocused();
  await snap(page, testInfo, "approved by keyboard, focus on the outcome");

  await expect.poll(() => readWorkspaceFile(fileName)).toBe("Written without a mouse.");

  // Going back up the page with Shift+Tab, the sticky header never hides what has focus (WCAG 2.4.11).
  await page.keyboard.press("End");
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
  for (let presses = 0; presses < 40; presses += 1) {
    await page.keyboard.press("Shift+Tab");
    const hidden = await page.evaluate(() => {
      const focused = document.activeElement;
      const header = document.querySelector("body > header, header.sticky");
      // The skip link shows over the header on purpose, as the page's first stop.
      if (!focused || focused === document.body || !header || header.contains(focused) || focused.getAttribute("href") === "#main") return null;
      const box = focused.getBoundingClientRect();
      return box.top < header.getBoundingClientRect().bottom && box.bottom > 0 ? `${focused.tagName} "${focused.textContent?.slice(0, 40)}" at ${Math.round(box.top)} px` : null;
    });
    expect(hidden, "the focused control is under the sticky header").toBeNull();
  }
  expect(await pointerEventsSeen(page)).toBe(0);
});

test("Go to node reaches a card the canvas has not drawn, brings it into view and gives it focus", async ({ page, request }, testInfo) => {
  await countPointerEvents(page);
  // A long line of steps: at a readable zoom most cards are out of view, so not in the page at all.
  const steps = Array.from({ length: 30 }, (_, index) => ({
    id: `step_${index}`,
    kind: "output" as const,
    label: `Step number ${index + 1}`,
    position: { x: index * 320, y: (index % 3) * 160 },
    value: "",
  }));
  const id = await createWorkflow(request, { name: uniqueName("Long line", testInfo), description: "", nodes: steps, edges: [] });
  await page.goto(`/workflows/${id}`);
  const canvas = canvasOf(page);
  await expect(canvasCard(canvas, "Step number 1")).toBeVisible();
  await expect(canvasCard(canvas, "Step number 30")).toHaveCount(0);

  await tabTo(page, page.getByRole("button", { name: "Go to node…" }));
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Go to node" });
  await expect(dialog.getByRole("option")).toHaveCount(30);
  await page.keyboard.type("step number 3");
  // "3" and "30", in the workflow's order; the arrows move between them.
  await expect(dialog.getByRole("option")).toHaveText([/^Step number 3,/, /^Step number 30,/]);
  await page.keyboard.press("ArrowDown");
  await expect(dialog.getByRole("option", { selected: true })).toHaveText(/^Step number 30,/);
  await snap(page, testInfo, "go to node, filtered");
  await page.keyboard.press("Enter");

  const far = canvasCard(canvas, "Step number 30");
  await expect(far).toBeFocused();
  await expect(far).toBeInViewport();
  await expect(page.getByRole("region", { name: "Inspector: Step number 30" })).toBeVisible();
  await snap(page, testInfo, "the far card in view, focused and selected");
  expect(await pointerEventsSeen(page)).toBe(0);
});

test("in the inbox, focus goes from a decided card's outcome to the next card waiting", async ({ page, request }, testInfo) => {
  await countPointerEvents(page);
  const runs: string[] = [];
  for (const index of [1, 2]) {
    const id = await createWorkflow(request, writeWorkflow(uniqueName(`Inbox focus ${index}`, testInfo), `inbox-focus-${index}-${testInfo.testId.slice(0, 8)}.txt`));
    runs.push(await startRun(request, id, { message: `number ${index}` }));
  }
  await page.goto("/inbox");
  const first = page.locator(`article:has(a[href="/runs/${runs[0]}"])`);
  const second = page.locator(`article:has(a[href="/runs/${runs[1]}"])`);
  await expect(first).toBeVisible();
  await expect(second).toBeVisible();

  // Cards other specs left waiting come first (oldest first), each with its own controls to Tab past.
  await tabTo(page, first.getByRole("button", { name: /^Approve once/ }), "Tab", 400);
  await page.keyboard.press("Enter");
  await expect(first.getByTestId("approval-outcome")).toBeFocused();
  // The decided card leaves after a moment; focus goes on to the next one's title, read as "… wants to change a file".
  await expect(first).toHaveCount(0);
  await expect(second.getByRole("heading", { name: "Write a File wants to change a file" })).toBeFocused();

  // From there, Tab goes on inside that card, to its own decision.
  await tabTo(page, second.getByRole("button", { name: /^Deny/ }));
  await page.keyboard.press("Enter");
  await expect(second.getByRole("textbox", { name: "What should it do instead?" })).toBeFocused();
  await page.keyboard.type("Not today.");
  await page.keyboard.press("Tab");
  await page.keyboard.press("Enter");
  await expect(second.getByTestId("approval-outcome")).toBeFocused();
  await expect(second.getByTestId("approval-outcome")).toContainText("Not today.");
  await expect(second).toHaveCount(0);
  // Never the page's body: another card that still waits, or the top of the list.
  expect(await page.evaluate(() => document.activeElement !== document.body && document.activeElement !== null)).toBe(true);
  expect(await pointerEventsSeen(page)).toBe(0);
});
