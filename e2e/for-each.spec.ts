import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { WorkflowDefinitionInput } from "@/lib/workflow/definition";
import { expect, test } from "./fixtures/test";
import { blockingViolations } from "./fixtures/accessibility";
import { canvasCard, createWorkflow, readWorkspaceFile, snap, uniqueName, workspace } from "./fixtures/studio";

/**
 * A loop as a person builds it: a For each step is pointed at an upstream
 * list in the inspector, its body (a write per item) hangs from its "each
 * item" handle; the run shows the loop waiting for its items and counting
 * them as they finish, each item's approval names the item in the inbox, and
 * each item's run opens from the step's panel.
 */

test("build a for-each over a list and watch per-item progress", async ({ page, request }, testInfo) => {
  const name = uniqueName("Copy each note", testInfo);
  const folder = `for-each-${testInfo.testId.slice(0, 8)}`;
  mkdirSync(path.join(workspace(), folder, "notes"), { recursive: true });
  for (const note of ["a", "b", "c"]) writeFileSync(path.join(workspace(), folder, "notes", `${note}.txt`), note);
  const workflowId = await createWorkflow(request, {
    name,
    nodes: [
      { id: "input", kind: "input", position: { x: 0, y: 0 }, fields: [] },
      { id: "list", kind: "tool", label: "List the notes", position: { x: 300, y: 0 }, tool: "list_dir", settings: { root: path.join(workspace(), folder) }, arguments: { path: "notes" } },
      { id: "loop", kind: "foreach", label: "Each note", position: { x: 600, y: 0 } },
      {
        id: "copy",
        kind: "tool",
        label: "Copy the note",
        position: { x: 900, y: -120 },
        tool: "write_file",
        settings: { root: path.join(workspace(), folder) },
        arguments: { path: "copies/{{ index }}.txt", content: "copy of {{ item.path }}" },
      },
      { id: "output", kind: "output", position: { x: 900, y: 120 }, value: "{{ nodes.loop.data }}" },
    ],
    edges: [
      { id: "input-list", source: "input", target: "list" },
      { id: "list-loop", source: "list", target: "loop" },
      { id: "loop-copy", source: "loop", target: "copy", sourceHandle: "item" },
      { id: "loop-output", source: "loop", target: "output", sourceHandle: "done" },
    ],
  });

  // In the editor: the body's card says which loop runs it; point the loop at the list and run two at a time.
  await page.goto(`/workflows/${workflowId}`);
  await expect(page.getByTestId("node-card-Copy the note")).toContainText("in For each “Each note”");
  await page.getByTestId("node-card-Each note").click();
  const inspector = page.getByRole("region", { name: "Inspector: Each note" });
  await expect(inspector.getByText(/Choose the list to go through/)).toBeVisible();
  // A template field: a combobox that offers completions after {{ (e2e/field-mapping.spec.ts).
  await inspector.getByRole("combobox", { name: "List", exact: true }).fill("{{ nodes.list.data.entries }}");
  await inspector.getByRole("spinbutton", { name: "Items at a time" }).fill("2");
  await expect(page.getByText("Ready to run")).toBeVisible();
  await snap(page, testInfo, "editor: a For each over the listed notes");
  expect(await blockingViolations(page, "the editor with the For each inspector")).toEqual([]);
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible();

  await page.getByRole("button", { name: "Run", exact: true }).click();
  const runDialog = page.getByRole("dialog", { name: "Run the workflow" });
  if (await runDialog.isVisible()) await runDialog.getByRole("button", { name: "Start run" }).click();
  await expect(page).toHaveURL(/\/runs\/[^/]+$/);
  const runUrl = page.url();
  const heading = page.getByRole("heading", { level: 1, name });
  await expect(heading).toBeVisible();
  // Two items at a time, each waiting for its write: the loop waits for its items (nobody is asked in this run itself).
  const loopCard = canvasCard(page, "Each note", "waiting for its items");
  await expect(loopCard).toBeVisible();
  await expect(loopCard).toContainText("0 of 3 done");
  // The body is no step of this run: its card says it runs per item, in each item's run.
  await expect(canvasCard(page, "Copy the note", "runs per item")).toContainText("in For each “Each note”");
  await page.getByLabel("Show node").selectOption("loop");
  const items = page.getByTestId("loop-items");
  await expect(items.getByRole("link")).toHaveCount(2);
  // Two of the list's three started: each says its place in the whole list, not among those started so far.
  await expect(items.getByRole("link", { name: /^Item 1 of 3: run #/ })).toBeVisible();
  await expect(items.getByRole("link", { name: /^Item 2 of 3: run #/ })).toBeVisible();
  await expect(items.getByRole("listitem").filter({ hasText: "(running)" })).toHaveCount(2);
  await snap(page, testInfo, "run: the loop waits for two items");
  expect(await blockingViolations(page, "the run page with a For each waiting for its items")).toEqual([]);

  // The inbox names each item; approving them one by one counts them done on the run page.
  for (let done = 1; done <= 3; done += 1) {
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: /^Inbox/ }).click();
    const approval = page.getByRole("article").filter({ hasText: new RegExp(`${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}, item \\d of 3 of “Each note”`) }).first();
    await expect(approval).toBeVisible();
    await approval.getByRole("button", { name: "Approve once" }).click();
    await expect(approval.getByRole("status")).toHaveText(/^Approved once( by [^.]+)?\. The write goes ahead\.$/);
    await page.goto(runUrl);
    if (done < 3) await expect(canvasCard(page, "Each note", "waiting for its items")).toContainText(`${done} of 3 done`);
  }
  await expect(heading).toContainText("succeeded");
  expect(readWorkspaceFile(path.join(folder, "copies", "0.txt"))).toBe("copy of notes/a.txt");
  expect(readWorkspaceFile(path.join(folder, "copies", "2.txt"))).toBe("copy of notes/c.txt");
  await page.getByLabel("Show node").selectOption("loop");
  await expect(page.getByTestId("loop-progress")).toHaveText("3 of 3 done");
  await expect(items.getByRole("link")).toHaveCount(3);
  await expect(items.getByRole("listitem").filter({ hasText: "(succeeded)" })).toHaveCount(3);
  await snap(page, testInfo, "run: every item done");

  // Any item's steps open from the list; its page says which item of which loop it is.
  await items.getByRole("link", { name: /^Item 2 of 3: run #/ }).click();
  await expect(page.getByTestId("loop-run-link")).toContainText("Item 2 of 3 of the For each step “Each note”");
  await expect(canvasCard(page, "Copy the note", "succeeded")).toBeVisible();
  expect(await blockingViolations(page, "an item's run page")).toEqual([]);
  await page.getByTestId("loop-run-link").getByRole("link", { name: /^Open the loop's run #/ }).click();
  await expect(page).toHaveURL(runUrl);
});

test("the For each example, imported as it is, counts its cards' warnings instead of saying Ready to run", async ({ page, request }, testInfo) => {
  // Its folders (/srv/notes, /srv/copies) are the reader's to change: here they do not exist, and the cards warn so.
  const example = JSON.parse(readFileSync(path.join(__dirname, "../examples/for-each.workflow.json"), "utf8")) as WorkflowDefinitionInput;
  const workflowId = await createWorkflow(request, { ...example, name: uniqueName("For each example", testInfo) });
  await page.goto(`/workflows/${workflowId}`);
  await expect(canvasCard(page, "Each note")).toBeVisible();
  await expect(page.getByRole("main").getByText(/^\d+ warnings?$/)).toBeVisible();
  await expect(page.getByText("Ready to run")).toHaveCount(0);
  await snap(page, testInfo, "editor: the For each example with its warnings counted");
});
