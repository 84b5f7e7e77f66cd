import http from "node:http";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures/test";
import { blockingViolations, COLOUR_RULES, switchColorScheme } from "./fixtures/accessibility";
import { closedPort } from "./fixtures/network";
import { startRun } from "./fixtures/approvals";
import { canvasCard, confirmIdentity, createWorkflow, snap, uniqueName, workspace } from "./fixtures/studio";

/**
 * A run fails at a step that cannot reach its server; the person opens the
 * failed run, starts the server, presses "Retry from failed step" and watches
 * the new run: the step that succeeded before is carried over (not run again,
 * marked "from run #…" on its card and in the timeline), the failed step and
 * what follows run, and each run links to the other.
 */

const shortId = (runId: string) => `#${runId.slice(-6)}`;
const card = canvasCard;
const runIdOf = (page: Page) => new URL(page.url()).pathname.split("/").pop()!;

test("a failed run is retried from its failed step: what succeeded is carried over, the rest runs, and the runs link each other", async ({ page, request }, testInfo) => {
  const name = uniqueName("Daily report", testInfo);
  const port = await closedPort();
  // Reaching a port of this machine (localNetworkAllow) is a privileged change.
  await confirmIdentity(request);
  const id = await createWorkflow(request, {
    name,
    guardrails: { localNetworkAllow: [`127.0.0.1:${port}`] },
    nodes: [
      { id: "input", kind: "input", position: { x: 0, y: 120 }, fields: [] },
      { id: "list", kind: "tool", label: "List the workspace", position: { x: 300, y: 120 }, tool: "list_dir", settings: { root: workspace() }, arguments: { path: "." } },
      { id: "fetch", kind: "tool", label: "Fetch the status", position: { x: 600, y: 120 }, tool: "http", arguments: { url: `http://127.0.0.1:${port}/status` } },
      { id: "report", kind: "output", label: "Report", position: { x: 900, y: 120 }, value: "{{ nodes.fetch.data.body }}" },
    ],
    edges: [
      { id: "input-list", source: "input", target: "list" },
      { id: "list-fetch", source: "list", target: "fetch" },
      { id: "fetch-report", source: "fetch", target: "report" },
    ],
  });

  // The run fails: nothing listens on the port.
  const sourceId = await startRun(request, id);
  await page.goto(`/runs/${sourceId}`);
  const heading = page.getByRole("heading", { level: 1, name });
  await expect(heading).toContainText("failed");
  await expect(card(page, "Fetch the status", "failed")).toBeVisible();
  await expect(card(page, "List the workspace", "succeeded")).toBeVisible();
  const retry = page.getByRole("button", { name: "Retry from failed step" });
  await expect(retry).toBeVisible();
  await expect(page.getByRole("button", { name: "Run again" })).toBeVisible();
  // A real button that shows where keyboard focus is.
  await retry.focus();
  await expect(retry).toBeFocused();
  expect(await retry.evaluate((element) => getComputedStyle(element).outlineStyle)).not.toBe("none");
  await snap(page, testInfo, "the failed run, its retry and run again buttons");

  // Someone starts the status server; the person retries.
  const status = http.createServer((_request, response) => response.end("all systems go"));
  await new Promise<void>((resolve) => status.listen(port, "127.0.0.1", resolve));
  try {
    await retry.click();
    await expect(page).not.toHaveURL(new RegExp(`/runs/${sourceId}$`));
    const retryId = runIdOf(page);
    await expect(heading).toContainText("succeeded");

    // The step that succeeded before is carried over, not run again; the failed one ran this time.
    const kept = card(page, "List the workspace", `succeeded, kept from run ${shortId(sourceId)}`);
    await expect(kept).toBeVisible();
    await expect(kept).toContainText(`from run ${shortId(sourceId)}`);
    await expect(card(page, "Fetch the status", "succeeded")).toBeVisible();
    // The header says what the person did, not that a Run button started it.
    await expect(page.getByTestId("run-trigger")).toHaveText("Retry from the failed step");
    const timeline = page.getByRole("region", { name: "Timeline" });
    await expect(timeline).toContainText(`Run started: a retry of run ${shortId(sourceId)} from its failed step`);
    await expect(timeline).toContainText(`List the workspace: Kept its result from run ${shortId(sourceId)}`);
    await expect(timeline.getByRole("button", { name: /^.*List the workspace started/ })).toHaveCount(0);
    await expect(page.getByRole("complementary", { name: "Node details" })).toContainText("all systems go");
    await snap(page, testInfo, "the retry: the kept step marked, the rest run");
    expect(await blockingViolations(page, "the retry's page")).toEqual([]);

    // Its panel says where its result came from.
    await page.getByLabel("Show node").selectOption("list");
    await expect(page.getByTestId("carried-over")).toContainText(`Kept from run ${shortId(sourceId)}: it succeeded there, so this retry did not run it again.`);
    await snap(page, testInfo, "the kept step's panel");

    // The link back to the run it came from, whose page lists the retry.
    const source = page.getByTestId("rerun-source-link");
    await expect(source).toContainText(`This run is a retry of run ${shortId(sourceId)} from its failed step`);
    await source.getByRole("link", { name: `Open run ${shortId(sourceId)}` }).click();
    await expect(page).toHaveURL(new RegExp(`/runs/${sourceId}$`));
    const made = page.getByRole("region", { name: "Runs made from this one" });
    await expect(made).toContainText("Retry from the failed step");
    await expect(made.getByRole("link", { name: `Run ${shortId(retryId)}` })).toBeVisible();
    await snap(page, testInfo, "the failed run lists its retry");
    expect(await blockingViolations(page, "the failed run's page, listing its retry")).toEqual([]);
    await switchColorScheme(page, "dark");
    expect(await blockingViolations(page, "the failed run's page, listing its retry, dark", COLOUR_RULES)).toEqual([]);
    await snap(page, testInfo, "the failed run lists its retry, dark");
  } finally {
    await new Promise<void>((resolve) => status.close(() => resolve()));
  }
});
