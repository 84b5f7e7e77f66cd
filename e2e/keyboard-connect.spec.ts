import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures/test";
import { canvasCard, createWorkflow, snap, uniqueName } from "./fixtures/studio";
import { tabTo } from "./fixtures/keyboard";

/**
 * Connects Run inputs to Output and takes the connection away again with the
 * keyboard alone: a card is reached by focus and selected with Enter, the
 * inspector's Connections section is reached by Tab, and the edge goes
 * through the same editor document as a drag (saved with Ctrl+S, validated).
 */

function canvasOf(page: Page): Locator {
  return page.getByRole("application", { name: "Workflow canvas" });
}

function card(page: Page, title: string): Locator {
  return canvasCard(canvasOf(page), title);
}

/** The card shows its focus ring; the picture takes a margin around the card, since the ring is drawn outside it. */
async function expectFocusRing(page: Page, focused: Locator, path: string): Promise<void> {
  await expect(focused).toHaveCSS("outline-style", "solid");
  await expect(focused).toHaveCSS("outline-width", "2px");
  const box = await focused.boundingBox();
  expect(box).not.toBeNull();
  await page.screenshot({ path, clip: { x: box!.x - 16, y: box!.y - 16, width: box!.width + 32, height: box!.height + 32 }, animations: "disabled" });
}

async function savedEdges(page: Page, id: string): Promise<{ source: string; target: string }[]> {
  const response = await page.request.get(`/api/workflows/${id}`);
  expect(response.ok(), await response.text()).toBe(true);
  const { workflow } = (await response.json()) as { workflow: { definition: { edges: { source: string; target: string }[] } } };
  return workflow.definition.edges;
}

test("connect two nodes and remove the connection with the keyboard only", async ({ page, request }, testInfo) => {
  const id = await createWorkflow(request, {
    name: uniqueName("Keyboard connected", testInfo),
    description: "",
    nodes: [
      { id: "input", kind: "input", position: { x: 0, y: 0 }, fields: [{ name: "message", label: "Message", type: "string", required: true }] },
      { id: "output", kind: "output", position: { x: 360, y: 0 }, value: "{{ inputs.message }}" },
    ],
    edges: [],
  });

  await page.goto(`/workflows/${id}`);
  const toolbarStatus = page.getByRole("status").filter({ hasText: /Saved|Unsaved changes|Saving…/ });
  await expect(page.getByText("1 problem", { exact: true })).toBeVisible();

  // Reach the Run inputs card by focus and select it with Enter, as React Flow's keyboard support does.
  const inputCard = card(page, "Run inputs");
  await inputCard.focus();
  await expect(inputCard).toBeFocused();
  await expectFocusRing(page, inputCard, testInfo.outputPath("focused-card.png"));
  await page.keyboard.press("Enter");
  const inputInspector = page.getByRole("region", { name: "Inspector: Run inputs" });
  const connections = inputInspector.getByRole("region", { name: "Connections" });
  await expect(connections.getByText("This node feeds nothing.")).toBeVisible();

  // Connect to… Output, by Tab and Enter.
  const target = connections.getByRole("combobox", { name: "Connect to…" });
  await tabTo(page, target);
  await expect(target.locator("option:checked")).toHaveText("Output");
  await page.keyboard.press("Tab");
  await expect(connections.getByRole("button", { name: "Connect", exact: true })).toBeFocused();
  await page.keyboard.press("Enter");
  const removeOutgoing = connections.getByRole("button", { name: "Remove the connection to Output", exact: true });
  await expect(removeOutgoing).toBeVisible();
  await expect(canvasOf(page).getByRole("group", { name: /^Connection from Run inputs to Output$/ })).toBeAttached();
  await expect(page.getByTestId("editor-announcement")).toHaveText("Connected Run inputs to Output");
  await connections.screenshot({ path: testInfo.outputPath("connections-section.png"), animations: "disabled" });

  // Save with Ctrl+S: the workflow is ready to run and the saved definition has the edge.
  await page.keyboard.press("Control+s");
  await expect(toolbarStatus).toHaveText("Saved");
  await expect(page.getByText("Ready to run", { exact: true })).toBeVisible();
  await expect(page.getByText(/Nothing leads to this node/)).toHaveCount(0);
  expect(await savedEdges(page, id)).toEqual([expect.objectContaining({ source: "input", target: "output" })]);

  // From the Output back to Run inputs is refused, with the reason the canvas gives, inline.
  const outputCard = card(page, "Output");
  await outputCard.focus();
  await page.keyboard.press("Enter");
  const outputConnections = page.getByRole("region", { name: "Inspector: Output" }).getByRole("region", { name: "Connections" });
  await expect(outputConnections.getByRole("list", { name: "Inputs from" })).toContainText("Run inputs");
  await tabTo(page, outputConnections.getByRole("button", { name: "Connect", exact: true }));
  await page.keyboard.press("Enter");
  await expect(outputConnections.getByRole("alert")).toHaveText("Run inputs start the workflow: nothing can flow into them.");
  await snap(page, testInfo, "connection refused");

  // Remove the edge from the Output's side, by Tab and Enter, and save.
  const removeIncoming = outputConnections.getByRole("button", { name: "Remove the connection from Run inputs", exact: true });
  await tabTo(page, removeIncoming, "Shift+Tab");
  await page.keyboard.press("Enter");
  await expect(outputConnections.getByText("Nothing feeds this node.")).toBeVisible();
  await expect(canvasOf(page).getByRole("group", { name: /^Connection from Run inputs to Output$/ })).toHaveCount(0);
  await expect(outputConnections.getByRole("combobox", { name: "Connect to…" })).toBeFocused();

  // The removal is one step of the editor's history, as a canvas delete is: undone and redone from the keyboard.
  await page.keyboard.press("Tab");
  await page.keyboard.press("Control+z");
  await expect(outputConnections.getByRole("list", { name: "Inputs from" })).toContainText("Run inputs");
  await page.keyboard.press("Control+Shift+z");
  await expect(outputConnections.getByText("Nothing feeds this node.")).toBeVisible();
  await page.keyboard.press("Control+s");
  await expect(toolbarStatus).toHaveText("Saved");
  await expect(page.getByText("1 problem", { exact: true })).toBeVisible();
  expect(await savedEdges(page, id)).toEqual([]);

  // The ring holds in the dark theme too, on the selected card.
  await page.emulateMedia({ colorScheme: "dark" });
  await outputCard.focus();
  await expectFocusRing(page, outputCard, testInfo.outputPath("focused-card-dark.png"));
});
