import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures/test";
import { closedPort } from "./fixtures/network";
import { confirmIdentity, createWorkflow, readWorkspaceFile, snap, uniqueName, workspace } from "./fixtures/studio";

/**
 * Failures handled in the graph, as a person builds and watches them: a step
 * that cannot reach its server is given an error path in the inspector, its
 * red error handle dragged to the step that writes a note, and the run is
 * watched while it happens: the attempt that failed and the countdown to the
 * next, then the error branch taken (its write waiting for approval) and the
 * normal branch skipped.
 */

const card = (page: Page, title: string) => page.getByTestId(`node-card-${title}`);

test("an error edge built in the editor is taken in the live run view, after the retries it was given", async ({ page, request }, testInfo) => {
  const name = uniqueName("Status check", testInfo);
  const port = await closedPort();
  const note = `status-note-${testInfo.testId.slice(0, 8)}.txt`;
  // Reaching a port of this machine (localNetworkAllow) is a privileged change.
  await confirmIdentity(request);
  const id = await createWorkflow(request, {
    name,
    guardrails: { localNetworkAllow: [`127.0.0.1:${port}`] },
    nodes: [
      { id: "input", kind: "input", position: { x: 0, y: 120 }, fields: [] },
      {
        id: "fetch",
        kind: "tool",
        label: "Fetch the status",
        position: { x: 300, y: 120 },
        tool: "http",
        arguments: { url: `http://127.0.0.1:${port}/status` },
        // Long enough a wait to be seen however slowly the page opens.
        execution: { retry: { maxAttempts: 2, initialDelayMs: 8000 } },
      },
      { id: "report", kind: "output", label: "Report", position: { x: 620, y: 0 }, value: "{{ nodes.fetch.output }}" },
      {
        id: "note",
        kind: "tool",
        label: "Write the note",
        position: { x: 620, y: 260 },
        tool: "write_file",
        settings: { root: workspace() },
        arguments: { path: note, content: "{{ nodes.fetch.output.error.kind }}: {{ nodes.fetch.output.error.message }}" },
      },
    ],
    edges: [
      { id: "input-fetch", source: "input", target: "fetch" },
      { id: "fetch-report", source: "fetch", target: "report" },
    ],
  });

  // In the editor: the step gets an error path in its On failure section.
  await page.goto(`/workflows/${id}`);
  await card(page, "Fetch the status").click();
  const inspector = page.getByRole("region", { name: "Inspector: Fetch the status" });
  await expect(inspector.getByRole("heading", { name: "On failure" })).toBeVisible();
  await expect(inspector.getByRole("spinbutton", { name: "Attempts in all" })).toHaveValue("2");
  await inspector.getByRole("combobox", { name: "On error" }).selectOption({ label: "Follow the error path" });

  // Its card now has a red error handle; until an error edge leaves it, validation says what is missing, on the field.
  const errorHandle = page.getByTitle("Error path of Fetch the status", { exact: true });
  await expect(errorHandle).toBeVisible();
  await expect(inspector.getByText(/needs an error path: connect this node's red error handle/)).toBeVisible();
  const box = await errorHandle.boundingBox();
  expect(box!.width).toBeGreaterThanOrEqual(18); // 24 px at the canvas's zoom, which is below 1 here

  // Drag it to the step that handles the failure.
  await errorHandle.dragTo(page.getByTitle("Input of Write the note", { exact: true }));
  const canvas = page.getByRole("application", { name: "Workflow canvas" });
  await expect(canvas.getByRole("group", { name: "Error path from Fetch the status to Write the note" })).toBeAttached();
  await expect(page.getByText("Ready to run")).toBeVisible();
  await snap(page, testInfo, "editor: the error edge built");

  // Run it and watch: the first attempt fails (nothing listens there), and the next is counted down to.
  await page.getByRole("button", { name: "Run", exact: true }).click();
  await page.getByRole("dialog", { name: "Run the workflow" }).getByRole("button", { name: "Start run" }).click();
  const heading = page.getByRole("heading", { level: 1, name });
  await expect(heading).toBeVisible();
  await expect(page.getByRole("group", { name: /^Fetch the status, HTTP Request tool, retrying: attempt 2\/2 in / })).toBeVisible();
  await page.getByLabel("Show node").selectOption("fetch");
  await expect(page.getByTestId("retry-countdown")).toHaveText(/^Attempt 1 of 2 failed · next in \d/);
  await expect(page.getByRole("complementary", { name: "Node details" })).toContainText("the connection was refused");
  await snap(page, testInfo, "live: attempt 1 failed, the next counted down to");

  // The second attempt fails too: its error path is taken while the run goes on, the normal branch skipped.
  await expect(page.getByRole("group", { name: "Write the note, Write a File tool, waiting for you" })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole("group", { name: "Report, Output, skipped" })).toBeVisible();
  await expect(page.getByRole("group", { name: "Fetch the status, HTTP Request tool, failed" })).toBeVisible();
  // The page opened the step that waits; the failed one says how its failure was handled.
  await page.getByLabel("Show node").selectOption("fetch");
  await expect(page.getByText("Handled: its error path to Write the note was taken, and its normal path skipped.")).toBeVisible();
  await expect(heading).toContainText("waiting for you");
  await expect(page.locator(".react-flow__edge.error-edge.taken")).toHaveCount(1);
  // Named for a screen reader by the cards it joins, and that it was taken.
  await expect(page.getByRole("img", { name: "Error path from Fetch the status to Write the note, taken" })).toBeAttached();
  await snap(page, testInfo, "live: the error branch taken");

  // The person approves the note; the run succeeds, its failure handled.
  await page.getByLabel("Show node").selectOption("note");
  await page.getByRole("button", { name: /^Approve once/ }).click();
  await expect(heading).toContainText("succeeded");
  expect(readWorkspaceFile(note)).toMatch(/^network: Could not reach GET http:\/\/127\.0\.0\.1:\d+\/status: the connection was refused/);
  await expect(page.getByRole("group", { name: "Write the note, Write a File tool, succeeded" })).toBeVisible();
});
