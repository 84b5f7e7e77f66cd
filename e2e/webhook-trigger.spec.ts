import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures/test";
import { canvasCard, createWorkflow, snap, uniqueName } from "./fixtures/studio";

/**
 * A webhook trigger as a person sets it up: added from the palette's
 * Triggers group, connected, given a header token, its address copied,
 * published, and called with the real curl while the runs list is open,
 * which shows the run without a reload. Then the test address: listen,
 * curl it, see what arrived and map a field of it into the run's input.
 */

const run = promisify(execFile);

/** curl as a person would type it: a JSON POST with the token; the answer's body and status. */
async function curl(url: string, token: string, body: unknown): Promise<{ status: number; text: string }> {
  const { stdout } = await run("curl", ["--silent", "--show-error", "--max-time", "30", "-X", "POST", url, "-H", "content-type: application/json", "-H", `Authorization: ${token}`, "-d", JSON.stringify(body), "-w", "\n%{http_code}"]);
  const cut = stdout.lastIndexOf("\n");
  return { status: Number(stdout.slice(cut + 1)), text: stdout.slice(0, cut) };
}

function canvasOf(page: Page): Locator {
  return page.getByRole("application", { name: "Workflow canvas" });
}

function card(page: Page, title: string): Locator {
  return canvasCard(canvasOf(page), title);
}

test("add a webhook trigger, copy its address, publish, curl it and watch the run arrive; then listen on the test address and map a field", async ({ page, context, request }, testInfo) => {
  const name = uniqueName("Greets from a webhook", testInfo);
  const secretName = `HOOK_${Date.now().toString(36).toUpperCase()}`;
  const token = `e2e-hook-token-${Date.now().toString(36)}`;
  expect((await request.post("/api/secrets", { data: { name: secretName, value: token, description: "The webhook's token" } })).status()).toBe(201);
  const id = await createWorkflow(request, {
    name,
    description: "",
    nodes: [
      { id: "input", kind: "input", position: { x: 0, y: 0 }, fields: [{ name: "name", label: "Name", type: "string", required: false, default: "nobody" }] },
      { id: "output", kind: "output", position: { x: 420, y: 60 }, value: "Hello, {{ inputs.name }}!" },
    ],
    edges: [{ id: "input-output", source: "input", target: "output", sourceHandle: null }],
  });
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);

  await page.goto(`/workflows/${id}`);
  const canvas = canvasOf(page);
  await expect(card(page, "Output")).toBeVisible();

  // The Triggers group of the palette holds the webhook; drop it on the canvas and connect it to the output.
  const triggers = page.getByRole("navigation", { name: "Node palette" }).getByRole("region", { name: "Triggers" });
  await triggers.getByRole("button", { name: /^Webhook/ }).dragTo(canvas, { targetPosition: { x: 160, y: 620 } });
  await expect(card(page, "Webhook")).toBeVisible();
  // A drag that starts while the dropped card still settles can miss the handle on a loaded machine: drag again then
  // (the editor never makes the same connection twice).
  const connection = canvas.getByRole("group", { name: /^Connection from Webhook to Output$/ });
  await expect(async () => {
    if ((await connection.count()) === 0) await page.getByTitle("Output of Webhook", { exact: true }).dragTo(page.getByTitle("Input of Output", { exact: true }));
    await expect(connection).toBeAttached({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await expect(connection).toHaveCount(1);

  // Who may call it: a token in a header, the stored secret.
  await card(page, "Webhook").click();
  const inspector = page.getByRole("region", { name: "Inspector: Webhook" });
  await inspector.getByRole("radio", { name: /A token in a header/ }).check();
  await inspector.getByRole("combobox", { name: "Secret" }).selectOption(secretName);
  await expect(page.getByText("Ready to run")).toBeVisible();

  // The copy button puts exactly the shown address on the clipboard.
  const shownUrl = (await inspector.getByTestId("webhook-url").textContent())!.trim();
  expect(shownUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/hooks\/[A-Za-z0-9_-]{22}$/);
  await inspector.getByRole("button", { name: "Copy the address" }).click();
  await expect(inspector.getByRole("button", { name: "Copy the address" })).toHaveText("Copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shownUrl);
  await snap(page, testInfo, "webhook added, token chosen, address copied");

  // Save, then publish: the toolbar says which version is live.
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible();
  await page.getByRole("button", { name: "Publish v2" }).click();
  await expect(page.getByText("Live: v2")).toBeVisible();

  // The runs list, open in another tab, hears of the delivery's run without a reload.
  const runsPage = await context.newPage();
  await runsPage.goto("/runs");
  const runsTable = runsPage.getByRole("table");
  await expect(runsPage.getByRole("heading", { level: 1, name: "Runs" })).toBeVisible();
  await expect(runsTable.getByRole("row").filter({ hasText: name })).toHaveCount(0);
  const live = await curl(shownUrl, token, { user: { name: "Ada" } });
  expect(live).toEqual({ status: 200, text: "Hello, nobody!" });
  const liveRow = runsTable.getByRole("row").filter({ hasText: name });
  await expect(liveRow).toHaveCount(1);
  await expect(liveRow).toContainText("Webhook");
  await expect(liveRow).toContainText("v2");
  await snap(runsPage, testInfo, "runs list: the webhook's run arrived live");

  // The test address: listen (the draft is saved first), curl it, and the captured request appears in the inspector.
  await page.bringToFront();
  await inspector.getByRole("button", { name: "Listen for a test delivery" }).click();
  await expect(inspector.getByRole("status").filter({ hasText: /Listening for one delivery \(version 2\)/ })).toBeVisible();
  const testUrl = (await inspector.getByTestId("webhook-test-url").textContent())!.trim();
  expect(testUrl).toBe(shownUrl.replace("/hooks/", "/hooks-test/"));
  await snap(page, testInfo, "listening on the test address");
  const tested = await curl(`${testUrl}?source=e2e`, token, { user: { name: "Grace", plan: "pro" }, tags: ["new"] });
  expect(tested).toEqual({ status: 200, text: "Hello, nobody!" });

  const captured = inspector.getByRole("group", { name: "Captured request" });
  await expect(captured).toBeVisible();
  await expect(inspector.getByRole("status").filter({ hasText: /Captured POST/ })).toBeVisible();
  // The token never reaches the page: its header is masked and not offered for mapping.
  const headers = captured.getByRole("region", { name: "Headers" });
  await expect(headers).toContainText("authorization");
  await expect(headers).toContainText("••••••");
  await expect(captured).not.toContainText(token);
  await expect(captured.getByRole("region", { name: "Query" }).getByRole("button", { name: "Map query.source to name" })).toBeVisible();

  // Map a body field into the run input "name": the mapping entry appears in the settings form.
  await expect(captured.getByRole("combobox", { name: "Map to input" })).toHaveValue("name");
  await captured.getByRole("button", { name: "Map body.user.name to name" }).click();
  await expect(captured.getByText("Mapped body.user.name to the input name.")).toBeVisible();
  const mappingEntry = inspector.getByRole("group", { name: "Mapping", exact: true }).getByRole("group", { name: "Item 1" });
  await expect(mappingEntry.getByRole("textbox", { name: /^From/ })).toHaveValue("body.user.name");
  await expect(page.getByRole("status").filter({ hasText: "Unsaved changes" })).toBeVisible();
  await captured.getByRole("region", { name: "Body" }).scrollIntoViewIfNeeded();
  await snap(page, testInfo, "captured request: the body tree, a value mapped");
  // The whole capture (body, query, masked headers, method), taller than the window: the panel alone.
  await testInfo.attach("the captured request panel", { body: await captured.screenshot({ path: testInfo.outputPath("captured-request-panel.png") }), contentType: "image/png" });
  await mappingEntry.scrollIntoViewIfNeeded();
  await snap(page, testInfo, "the mapping entry in the settings form");

  // The test run appears in the runs list too, marked as a test.
  const testRow = runsTable.getByRole("row").filter({ hasText: name }).filter({ hasText: "test" });
  await expect(testRow).toHaveCount(1);
  await snap(runsPage, testInfo, "runs list: the test delivery's run");

  // Saved and published, the mapping fills the input from every delivery.
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible();
  await page.getByRole("button", { name: "Publish v3" }).click();
  await expect(page.getByText("Live: v3")).toBeVisible();
  expect(await curl(shownUrl, token, { user: { name: "Linus" } })).toEqual({ status: 200, text: "Hello, Linus!" });
  await expect(runsTable.getByRole("row").filter({ hasText: name })).toHaveCount(3);
});
