import { existsSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { startRun } from "./fixtures/approvals";
import { cancelRun } from "./fixtures/cancel-run";
import { expect, test, watchBrowserErrors } from "./fixtures/test";
import { accessToken, ageSessions, createWorkflow, signInLink, snap, uniqueName, whenHydrated, workspace, writeWorkflow } from "./fixtures/studio";

/**
 * The door, seen from a browser: another site framing the studio, a fresh
 * browser signing in with the printed link or the token, signing out, and the
 * "confirm it is you" step before a stdio MCP server's command first runs.
 */

/** A browser with no session, as on a first visit. */
async function freshContext(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({ storageState: { cookies: [], origins: [] } });
}

test.describe("framing", () => {
  // Chromium reports the blocked frame as a console error: that report is what this test wants to see happen.
  test.use({ allowedBrowserErrors: [/violates the following Content Security Policy directive: "frame-ancestors 'none'"/] });

  test("a page on another port of this machine cannot frame the inbox", async ({ page, baseURL }, testInfo) => {
    // The attacker's page: the studio's inbox in a frame (the signed-in cookie would go with it), and a frame of its own as a control.
    const attacker = http.createServer((request, response) => {
      response.setHeader("content-type", "text/html; charset=utf-8");
      if (request.url === "/own") {
        response.end("<h1>Own frame</h1>");
        return;
      }
      response.end(`<!doctype html><title>Win a prize</title>
        <iframe id="studio" src="${baseURL}/inbox" width="900" height="500" onload="document.body.dataset.studio='loaded'"></iframe>
        <iframe id="own" src="/own" width="300" height="100"></iframe>`);
    });
    await new Promise<void>((resolve) => attacker.listen(0, "127.0.0.1", resolve));
    const { port } = attacker.address() as AddressInfo;
    try {
      const inbox = page.waitForResponse((response) => response.url() === `${baseURL}/inbox`);
      await page.goto(`http://127.0.0.1:${port}/`);
      const answer = await inbox;
      // The studio answered the framed request (the person is signed in), and told the browser not to show it.
      expect(answer.status()).toBe(200);
      expect(answer.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
      expect(answer.headers()["x-frame-options"]).toBe("DENY");
      await expect(page.locator("body")).toHaveAttribute("data-studio", "loaded");
      await expect(page.frameLocator("#own").getByRole("heading", { name: "Own frame" })).toBeVisible();
      await expect(page.frameLocator("#studio").getByRole("heading", { name: "Inbox" })).toHaveCount(0);
      await expect(page.frameLocator("#studio").getByRole("button")).toHaveCount(0);
      await snap(page, testInfo, "another site framing the inbox: the frame stays empty");
    } finally {
      await new Promise((resolve) => attacker.close(resolve));
    }
  });
});

/**
 * Types the access token on the sign-in page. Once people sign in with passwords of their own (other specs invite
 * some) the page opens on Password, and the token is behind its "Access token" choice.
 */
async function fillAccessToken(page: Page, token: string): Promise<void> {
  const field = page.getByLabel("Access token", { exact: true });
  const choice = page.getByRole("radio", { name: "Access token" });
  await expect(field.or(choice).first()).toBeVisible();
  if (!(await field.isVisible())) {
    await whenHydrated(choice);
    await choice.click();
  }
  await field.fill(token);
}

test("a fresh browser signs in with the printed link, or with the token on the sign-in page, and signs out", async ({ browser }, testInfo) => {
  const first = await freshContext(browser);
  const page = await first.newPage();
  await page.goto("/workflows");
  await expect(page).toHaveURL(/\/login\?next=%2Fworkflows$/);
  await expect(page.getByRole("heading", { name: "Sign in to the studio" })).toBeVisible();
  // No navigation before signing in.
  await expect(page.getByRole("navigation", { name: "Main" })).toHaveCount(0);
  await snap(page, testInfo, "sign-in page of a studio without a password");

  await fillAccessToken(page, "not-the-token-not-the-token");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText(/That access token is not right/)).toBeVisible();
  await fillAccessToken(page, accessToken());
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Workflows", level: 1 })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();

  const second = await freshContext(browser);
  const linked = await second.newPage();
  await linked.goto(signInLink("/inbox"));
  await expect(linked).toHaveURL(/\/inbox$/);
  await expect(linked.getByRole("heading", { name: "Inbox", level: 1 })).toBeVisible();
  const cookies = await second.cookies();
  expect(cookies.find((cookie) => cookie.name === "studio_session")).toMatchObject({ httpOnly: true, sameSite: "Strict" });

  // Signing out ends the session on the server: a copy of the cookie elsewhere stops working too.
  await linked.getByRole("button", { name: "Sign out" }).click();
  await expect(linked).toHaveURL(/\/login$/);
  const third = await browser.newContext({ storageState: { cookies, origins: [] } });
  const copied = await third.newPage();
  await copied.goto("/inbox");
  await expect(copied).toHaveURL(/\/login\?next=%2Finbox$/);
  // Signing in on the sign-in page with no page to go back to opens the workflows, not the tool catalogue.
  await fillAccessToken(linked, accessToken());
  await linked.getByRole("button", { name: "Sign in" }).click();
  await expect(linked).toHaveURL(/\/workflows$/);
  await expect(linked.getByRole("heading", { name: "Workflows", level: 1 })).toBeVisible();
  await Promise.all([first.close(), second.close(), third.close()]);
});

test("a stdio MCP server's command is shown before it runs, and runs only after the person confirms it is them", async ({ browser }, testInfo) => {
  const context = await freshContext(browser);
  const page = await context.newPage();
  await page.goto(signInLink("/settings/mcp"));
  await expect(page.getByRole("heading", { name: "MCP servers", level: 1 })).toBeVisible();
  ageSessions();

  const marker = path.join(workspace(), `${uniqueName("mcp-marker", testInfo).replace(/\W+/g, "-")}.txt`);
  const name = `marker-${Date.now().toString(36)}`;
  await page.getByRole("button", { name: "Add server" }).first().click();
  const form = page.getByRole("dialog", { name: "Add an MCP server" });
  await form.getByRole("textbox", { name: "Name" }).fill(name);
  await form.getByRole("textbox", { name: "Command" }).fill("sh");
  // A direction-changing character in a shell comment: harmless here, and it must be marked, not hidden.
  await form.getByRole("textbox", { name: "Arguments" }).fill(`-c\ntouch '${marker}' # \u202Edone`);
  await form.getByRole("button", { name: "Save and connect" }).click();

  const review = page.getByRole("dialog", { name: "Run this command on this machine?" });
  await expect(review).toBeVisible();
  // Exactly "-c": the marker's random folder name may hold "-c" too.
  await expect(review.getByRole("listitem").filter({ hasText: /^-c$/ })).toBeVisible();
  await expect(review.getByText(`touch '${marker}'`)).toBeVisible();
  await expect(review.getByText("⟨U+202E⟩")).toBeVisible();
  await expect(review.getByRole("alert")).toContainText("hidden or direction-changing characters");
  await snap(page, testInfo, "the exact command, before anything runs");
  expect(existsSync(marker)).toBe(false);

  await review.getByRole("button", { name: "Run this command" }).click();
  const confirm = page.getByRole("dialog", { name: "Confirm it is you" });
  await expect(confirm).toBeVisible();
  await confirm.getByLabel("Access token").fill("not-the-token-not-the-token");
  await confirm.getByRole("button", { name: "Confirm" }).click();
  await expect(confirm.getByText(/not right/)).toBeVisible();
  await snap(page, testInfo, "confirm it is you, after a wrong token");
  expect(existsSync(marker)).toBe(false);

  await confirm.getByLabel("Access token").fill(accessToken());
  await confirm.getByRole("button", { name: "Confirm" }).click();
  await expect(confirm).toBeHidden();
  // The same save went through after the confirmation: the server is listed and its command ran.
  await expect(page.getByRole("heading", { name: new RegExp(name) })).toBeVisible();
  await expect.poll(() => existsSync(marker)).toBe(true);

  await page.goto("/settings/security");
  // In the log's entries (the log's What filter lists the same words as its options).
  const entries = page.getByRole("region", { name: "Security log" }).getByRole("listitem");
  await expect(entries.filter({ hasText: "confirmed an MCP server's command" }).first()).toBeVisible();
  await expect(entries.filter({ hasText: /confirmed who they are/ }).first()).toBeVisible();
  await snap(page, testInfo, "the security page with the confirmation logged");
  await context.close();
});

test("an imported workflow that asked to run everything arrives in default mode, and the page says what was dropped", async ({ page }, testInfo) => {
  const name = uniqueName("Imported bypass", testInfo);
  const file = {
    name,
    mode: "bypass",
    guardrails: { shellPolicy: "open" },
    nodes: [
      { id: "in", kind: "input" },
      { id: "shell", kind: "tool", tool: "run_command", operation: "run", settings: { root: workspace() }, arguments: { command: "touch imported-marker" } },
    ],
    edges: [{ id: "in-shell", source: "in", target: "shell" }],
  };
  await page.goto("/workflows");
  await whenHydrated(page.locator("#import-workflow-file"));
  await page.locator("#import-workflow-file").setInputFiles({ name: "bypass.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(file)) });
  const notice = page.getByRole("status").filter({ hasText: `Imported “${name}” in default mode` });
  await expect(notice).toBeVisible();
  await expect(notice).toContainText("runs everything without asking (mode bypass)");
  await expect(notice).toContainText("shellPolicy open");
  await snap(page, testInfo, "import notice listing the dropped settings");
});

test("the security log names the workflow published and unpublished", async ({ page, request }, testInfo) => {
  const name = uniqueName("Logged publish", testInfo);
  const workflowId = await createWorkflow(request, writeWorkflow(name, "logged-publish.txt"));
  const published = await request.post(`/api/workflows/${workflowId}/publish`, { data: {} });
  expect(published.status(), await published.text()).toBe(200);
  const unpublished = await request.delete(`/api/workflows/${workflowId}/publish`);
  expect(unpublished.status(), await unpublished.text()).toBe(200);

  await page.goto("/settings/security");
  const entries = page.getByRole("region", { name: "Security log" }).getByRole("listitem");
  await expect(entries.filter({ hasText: `published the workflow “${name}”` }).filter({ hasNotText: "unpublished" })).toHaveCount(1);
  await expect(entries.filter({ hasText: `unpublished the workflow “${name}”` })).toHaveCount(1);
  await snap(page, testInfo, "the security log naming the workflow published");
});

// The fixture every spec uses (fixtures/test.ts) fails the test on any console error or uncaught exception.
test("every page of a signed-in studio loads without an error in the browser (hydration included)", async ({ page, request, browser, browserErrors }, testInfo) => {
  // A run started moments ago is where React's #418 showed: its relative times differed between server and browser.
  const workflowId = await createWorkflow(request, writeWorkflow(uniqueName("Every page", testInfo), `every-page-${Date.now()}.txt`));
  const runId = await startRun(request, workflowId, { message: "hello" });
  const pages = ["/", "/workflows", `/workflows/${workflowId}`, "/runs", `/runs/${runId}`, "/inbox", "/settings/secrets", "/settings/mcp", "/settings/people", "/settings/security", "/settings/retention", "/settings/account"];
  for (const path of pages) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    // React has hydrated (or re-rendered after a mismatch, logging it) once it has attached itself to the header's button.
    await expect
      .poll(() =>
        page.evaluate(() => {
          const button = [...document.querySelectorAll("header button")].find((each) => each.textContent === "Sign out");
          return button !== undefined && Object.keys(button).some((key) => key.startsWith("__reactFiber"));
        }),
      )
      .toBe(true);
  }
  // The first page a newcomer sees is signed out: the sign-in page, in a browser of its own.
  const signedOut = await freshContext(browser);
  watchBrowserErrors(signedOut, browserErrors);
  try {
    const door = await signedOut.newPage();
    await door.goto("/login");
    await expect(door.getByRole("heading", { level: 1, name: "Sign in to the studio" })).toBeVisible();
    await whenHydrated(door.getByRole("button", { name: "Sign in", exact: true }));
  } finally {
    await signedOut.close();
  }
  // Its approval would wait in every later test's inbox.
  await cancelRun(request, runId);
  expect(browserErrors).toEqual([]);
});
