import type { APIRequestContext, Browser, Page } from "@playwright/test";
import { expect, test } from "./fixtures/test";
import { blockingViolations, COLOUR_RULES, contrastRatio, SCREEN_SIZES, sidewaysOverflow, switchColorScheme, type ScreenSize } from "./fixtures/accessibility";
import { pendingApprovalIds, runStatus, startRun } from "./fixtures/approvals";
import { cancelRun } from "./fixtures/cancel-run";
import { createWorkflow, whenHydrated, workspace, writeWorkflow } from "./fixtures/studio";
import type { WorkerStudio } from "./fixtures/worker-studio";

/**
 * Every page and state of the studio through axe-core (WCAG 2.2 AA), in the
 * light and the dark theme, on a laptop, on a phone and at 200 % zoom: any
 * serious or critical finding fails, named by rule, element, page and state.
 * Each page's title names it, and on the phone and at 200 % zoom no page may
 * scroll sideways. Then the canvas's own non-text contrast, which axe leaves
 * alone.
 *
 * One page load per state and size; the theme is switched in place, and in
 * the dark one only the rules about colour run again (the themes differ in
 * nothing else). Colours do not change with the size either, so the dark
 * theme is checked on the laptop, and on the phone and at 200 % zoom only in
 * the states that exist there alone (the palette drawer).
 */

interface Fixtures {
  waitingWorkflowId: string;
  waitingRunId: string;
  finishedRunId: string;
  failedRunId: string;
}

interface PageState {
  name: string;
  /** Opens the page and brings it into the state, ready to be checked. */
  open: (page: Page, fixtures: Fixtures, size: ScreenSize) => Promise<void>;
  /** Goes on from the page the state before left (a dialog opened on it) instead of loading a page. */
  continues?: boolean;
  /** Only at these sizes (where the state exists: drawers are side panels on a laptop). */
  sizes?: readonly ScreenSize[];
  /** The sign-in page is checked signed out. */
  signedOut?: boolean;
}

const SMALL: readonly ScreenSize[] = ["phone", "200% zoom"];

async function heading(page: Page, path: string, name: string | RegExp): Promise<void> {
  await page.goto(path);
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
}

async function openEditor(page: Page, fixtures: Fixtures): Promise<void> {
  await page.goto(`/workflows/${fixtures.waitingWorkflowId}`);
  await expect(page.getByText("Ready to run")).toBeVisible();
  await expect(page.getByRole("application", { name: "Workflow canvas" }).getByRole("group", { name: /^Write a File/ })).toBeVisible();
}

/** `node`: the card's name, from its title to its status (what lies between may name its tool). */
async function runView(page: Page, runId: string, node: RegExp): Promise<void> {
  await page.goto(`/runs/${runId}`);
  await expect(page.getByRole("group", { name: node })).toBeVisible();
}

/** Opens the editor's drawer `name` where the side panels are drawers; on a laptop they are always shown. */
async function showPanel(page: Page, size: ScreenSize, name: "Nodes" | "Inspector"): Promise<void> {
  if (!SMALL.includes(size)) return;
  const toggle = page.getByRole("button", { name, exact: true });
  // A card clicked there opens the inspector by itself.
  if ((await toggle.getAttribute("aria-expanded")) !== "true") await toggle.click();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
}

const STATES: PageState[] = [
  { name: "tools (/)", open: (page) => heading(page, "/", "Tools") },
  { name: "workflows", open: (page) => heading(page, "/workflows", "Workflows") },
  {
    name: "new workflow dialog",
    continues: true,
    open: async (page) => {
      await page.getByRole("button", { name: "New workflow", exact: true }).click();
      await expect(page.getByRole("dialog", { name: "New workflow" })).toBeVisible();
    },
  },
  {
    name: "runs",
    open: async (page, fixtures) => {
      await heading(page, "/runs", "Runs");
      // The run's name and its Open both lead to it.
      await expect(page.locator(`a[href="/runs/${fixtures.waitingRunId}"]`).first()).toBeVisible();
    },
  },
  {
    name: "inbox",
    open: async (page) => {
      await heading(page, "/inbox", "Inbox");
      await expect(page.getByRole("article").first()).toBeVisible();
    },
  },
  { name: "secrets", open: (page) => heading(page, "/settings/secrets", "Secrets") },
  { name: "MCP", open: (page) => heading(page, "/settings/mcp", /MCP/) },
  { name: "people", open: (page) => heading(page, "/settings/people", "People") },
  { name: "security", open: (page) => heading(page, "/settings/security", /Security/) },
  { name: "data retention", open: (page) => heading(page, "/settings/retention", "Data retention") },
  { name: "account", open: (page) => heading(page, "/settings/account", "Your account") },
  {
    name: "make a token dialog",
    continues: true,
    open: async (page) => {
      await whenHydrated(page.getByRole("button", { name: "Make a token" }));
      await page.getByRole("button", { name: "Make a token" }).click();
      await expect(page.getByRole("dialog", { name: "Make a token" })).toBeVisible();
    },
  },
  { name: "sign-in", signedOut: true, open: (page) => heading(page, "/login", /Sign in/) },
  {
    name: "editor, a node selected",
    open: async (page, fixtures, size) => {
      await openEditor(page, fixtures);
      await page.getByRole("application", { name: "Workflow canvas" }).getByRole("group", { name: /^Write a File/ }).click();
      await showPanel(page, size, "Inspector");
      await expect(page.getByRole("complementary", { name: "Inspector" }).getByRole("heading", { name: "Connections" })).toBeVisible();
    },
  },
  {
    name: "editor, node palette open",
    sizes: SMALL,
    continues: true,
    open: async (page, _fixtures, size) => {
      // The inspector, open from the state before, covers most of a phone's width: it is closed first.
      await page.getByRole("button", { name: "Close the inspector" }).click();
      await showPanel(page, size, "Nodes");
      await expect(page.getByRole("searchbox", { name: "Search tools" })).toBeVisible();
    },
  },
  {
    name: "editor, Go to node open",
    open: async (page, fixtures) => {
      await openEditor(page, fixtures);
      await page.keyboard.press("Control+k");
      await expect(page.getByRole("dialog", { name: "Go to node" }).getByRole("option").first()).toBeVisible();
    },
  },
  {
    name: "editor, Describe what it should do open",
    open: async (page, fixtures) => {
      await openEditor(page, fixtures);
      await page.getByRole("button", { name: "Describe…" }).click();
      await expect(page.getByRole("complementary", { name: "Architect" }).getByRole("heading", { name: "Describe what it should do" })).toBeVisible();
    },
  },
  { name: "run waiting for approval", open: (page, fixtures) => runView(page, fixtures.waitingRunId, /^Write a File,.*waiting for you$/) },
  { name: "finished run", open: (page, fixtures) => runView(page, fixtures.finishedRunId, /^Write a File,.*succeeded$/) },
  { name: "failed run", open: (page, fixtures) => runView(page, fixtures.failedRunId, /^Read a File,.*failed$/) },
];

// A trace would snapshot the page at every one of axe's steps: many times slower, for a report that names each finding anyway.
test.use({ trace: "off" });

let fixtures: Fixtures;

/** A write waiting for a person, the same write approved and finished, and a read of a missing file that failed. */
async function makeFixtures(request: APIRequestContext): Promise<Fixtures> {
  const waitingWorkflowId = await createWorkflow(request, writeWorkflow("Axe: a write that waits", "axe-waiting.txt"));
  const waitingRunId = await startRun(request, waitingWorkflowId, { message: "Waiting for a person." });
  await pendingApprovalIds(request, waitingRunId);

  const finishedWorkflowId = await createWorkflow(request, writeWorkflow("Axe: a write that was approved", "axe-finished.txt"));
  const finishedRunId = await startRun(request, finishedWorkflowId, { message: "Approved." });
  const [approvalId] = await pendingApprovalIds(request, finishedRunId);
  const decided = await request.post(`/api/approvals/${approvalId}`, { data: { decision: "once" } });
  expect(decided.status(), await decided.text()).toBe(200);
  await expect.poll(() => runStatus(request, finishedRunId), { timeout: 30_000 }).toBe("succeeded");

  const failedWorkflowId = await createWorkflow(request, {
    name: "Axe: a read that fails",
    mode: "default",
    nodes: [
      { id: "input", kind: "input", position: { x: 0, y: 0 }, fields: [] },
      { id: "read", kind: "tool", position: { x: 320, y: 0 }, tool: "read_file", operation: null, settings: { root: workspace() }, arguments: { path: "axe-missing.txt" } },
      { id: "output", kind: "output", position: { x: 640, y: 0 }, value: "{{ nodes.read.output }}" },
    ],
    edges: [
      { id: "input-read", source: "input", target: "read" },
      { id: "read-output", source: "read", target: "output" },
    ],
  });
  const failedRunId = await startRun(request, failedWorkflowId);
  await expect.poll(() => runStatus(request, failedRunId), { timeout: 30_000 }).toBe("failed");
  return { waitingWorkflowId, waitingRunId, finishedRunId, failedRunId };
}

test.beforeAll(async ({ playwright, studio }) => {
  const request = await playwright.request.newContext({ baseURL: studio.url, storageState: studio.signedInState });
  fixtures = await makeFixtures(request);
  await request.dispose();
});

test.afterAll(async ({ playwright, studio }) => {
  if (!fixtures) return;
  const request = await playwright.request.newContext({ baseURL: studio.url, storageState: studio.signedInState });
  await cancelRun(request, fixtures.waitingRunId);
  await request.dispose();
});

async function checkSize(browser: Browser, size: ScreenSize, studio: WorkerStudio): Promise<string[]> {
  const findings: string[] = [];
  const signedIn = await browser.newContext({ ...SCREEN_SIZES[size], storageState: studio.signedInState, baseURL: studio.url });
  const signedOut = await browser.newContext({ ...SCREEN_SIZES[size], storageState: { cookies: [], origins: [] }, baseURL: studio.url });
  try {
    let page: Page | null = null;
    for (const state of STATES) {
      if (state.sizes && !state.sizes.includes(size)) continue;
      if (!state.continues || !page) {
        await page?.close();
        page = await (state.signedOut ? signedOut : signedIn).newPage();
      }
      await state.open(page, fixtures, size);
      const where = `${state.name} at ${size}`;
      // Every page names itself first in its title, as a browser tab or a screen reader's page list shows it.
      const title = await page.title();
      if (!/^.+ · Neurosurfer Studio$/.test(title)) findings.push(`${where}: the title "${title}" does not name the page`);
      if (size !== "desktop") {
        const overflow = await sidewaysOverflow(page);
        if (overflow > 0) findings.push(`${where}: the page scrolls sideways by ${overflow} px`);
      }
      findings.push(...(await blockingViolations(page, `${where}, light`)));
      if (size === "desktop" || state.sizes) {
        await switchColorScheme(page, "dark");
        findings.push(...(await blockingViolations(page, `${where}, dark`, COLOUR_RULES)));
        await switchColorScheme(page, "light");
      }
    }
  } finally {
    await signedIn.close();
    await signedOut.close();
  }
  return findings;
}

for (const size of Object.keys(SCREEN_SIZES) as ScreenSize[]) {
  test(`no serious or critical axe finding on any page or state at ${size}${size === "desktop" ? ", light and dark" : ""}`, async ({ browser, studio }) => {
    test.setTimeout(150_000);
    const findings = await checkSize(browser, size, studio);
    expect(findings, `axe findings, titles and sideways scrolling at ${size}:\n${findings.join("\n")}`).toEqual([]);
  });
}

test("canvas cards and connections stand out from the canvas at 3:1 (WCAG 1.4.11), light and dark", async ({ page }) => {
  await openEditor(page, fixtures);
  const card = page.getByTestId("node-card-Run inputs");
  const edge = page.getByRole("application", { name: "Workflow canvas" }).locator(".react-flow__edge-path").first();
  for (const theme of ["light", "dark"] as const) {
    await switchColorScheme(page, theme);
    const canvas = await page.locator(".react-flow").evaluate((element) => getComputedStyle(element).backgroundColor);
    const border = await card.evaluate((element) => getComputedStyle(element).borderTopColor);
    const stroke = await edge.evaluate((element) => getComputedStyle(element).stroke);
    expect(contrastRatio(border, canvas), `${theme}: a card's border ${border} on the canvas ${canvas}`).toBeGreaterThanOrEqual(3);
    expect(contrastRatio(stroke, canvas), `${theme}: a connection ${stroke} on the canvas ${canvas}`).toBeGreaterThanOrEqual(3);
  }
});
