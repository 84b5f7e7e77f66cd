import { realpathSync } from "node:fs";
import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures/test";
import { canvasCard, createWorkflow, snap, uniqueName, workspace } from "./fixtures/studio";
import { tabTo } from "./fixtures/keyboard";
import { stillBox } from "./fixtures/still";

/**
 * Putting a step between two connected cards from the connection itself, as
 * n8n does: the + that shows on the edge under the pointer, the same + reached
 * by Tab, and a palette item dropped onto the edge. Each time the edge gives
 * way to source -> new step -> target, and the new card sits between the two.
 * The new steps' inspector is looked at on the way: its order, its Fixed /
 * From… buttons' names, its folder picker.
 */

function canvasOf(page: Page): Locator {
  return page.getByRole("application", { name: "Workflow canvas" });
}

async function savedChain(page: Page, id: string): Promise<string[]> {
  const response = await page.request.get(`/api/workflows/${id}`);
  expect(response.ok(), await response.text()).toBe(true);
  const { workflow } = (await response.json()) as {
    workflow: { definition: { nodes: { id: string; position: { x: number } }[]; edges: { source: string; target: string }[] } };
  };
  const { nodes, edges } = workflow.definition;
  // Walk from the Run inputs along the edges: the chain as the run would take it.
  const chain = ["input"];
  for (let next = edges.find((edge) => edge.source === "input"); next; next = edges.find((edge) => edge.source === chain.at(-1))) chain.push(next.target);
  expect(chain.length, "every node on one chain").toBe(nodes.length);
  const x = chain.map((nodeId) => nodes.find((node) => node.id === nodeId)!.position.x);
  expect(x, "laid out left to right, none on top of another").toEqual([...x].sort((a, b) => a - b));
  expect(new Set(x).size).toBe(x.length);
  return chain;
}

test("insert a step into a connection by its +, by keyboard, and by dropping a palette item on it", async ({ page, request }, testInfo) => {
  const id = await createWorkflow(request, {
    name: uniqueName("Steps inserted", testInfo),
    description: "",
    nodes: [
      { id: "input", kind: "input", position: { x: 0, y: 0 }, fields: [{ name: "message", label: "Message", type: "string", required: true }] },
      { id: "output", kind: "output", position: { x: 700, y: 0 }, value: "{{ inputs.message }}" },
    ],
    edges: [{ id: "input->output", source: "input", target: "output", sourceHandle: null }],
  });
  await page.goto(`/workflows/${id}`);
  const canvas = canvasOf(page);
  const toolbarStatus = page.getByRole("status").filter({ hasText: /Saved|Unsaved changes|Saving…/ });
  const insertDialog = page.getByRole("dialog", { name: "Insert a step" });

  // 1. The pointer over the edge shows its +; the + opens the palette's list; the step goes between the cards.
  const edge = canvas.getByRole("group", { name: "Connection from Run inputs to Output" });
  const plus = page.getByRole("button", { name: "Insert a step into the connection from Run inputs to Output" });
  await expect(plus).toHaveCSS("opacity", "0");
  // The first view is fitted once the cards are measured, which may come after the + is drawn: hover where it stands
  // still, and again from outside the canvas should the view have moved under the pointer after all.
  await expect(async () => {
    const plusBox = await stillBox(plus);
    await page.mouse.move(1, 1);
    await page.mouse.move(plusBox.x - 60, plusBox.y + plusBox.height / 2);
    await expect(plus).toHaveCSS("opacity", "1", { timeout: 3_000 });
  }).toPass();
  await expect(edge).toBeAttached();
  await page.screenshot({ path: testInfo.outputPath("edge-plus-on-hover.png"), animations: "disabled" });
  await testInfo.attach("edge + on hover", { path: testInfo.outputPath("edge-plus-on-hover.png"), contentType: "image/png" });
  await plus.click();
  await expect(insertDialog).toBeVisible();
  await expect(insertDialog.getByText("Into the connection from Run inputs to Output.")).toBeVisible();
  await snap(page, testInfo, "insert step picker");
  await insertDialog.getByRole("searchbox", { name: "Search tools" }).fill("read a file");
  await insertDialog.getByRole("button", { name: /^Read a File/ }).click();
  await expect(insertDialog).toBeHidden();
  await expect(canvasCard(canvas, "Read a File")).toBeVisible();
  const inspector = page.getByRole("region", { name: "Inspector: Read a File" });
  await expect(inspector).toBeVisible();
  // The inspector opens on what the step needs: Settings and Inputs, then Test this step and Connections.
  await expect(inspector.getByRole("heading", { level: 3 })).toContainText(["Settings", "Inputs", "Test this step", "Connections"]);
  await expect(canvas.getByRole("group", { name: "Connection from Run inputs to Read a File" })).toBeAttached();
  await expect(canvas.getByRole("group", { name: "Connection from Read a File to Output" })).toBeAttached();
  await expect(edge).toHaveCount(0);

  // 2. By keyboard: Tab reaches the + of the edge after Read a File, it shows while focused, Enter opens the picker.
  const secondPlus = page.getByRole("button", { name: "Insert a step into the connection from Read a File to Output" });
  await canvasCard(canvas, "Read a File").focus();
  await tabTo(page, secondPlus, "Shift+Tab");
  await expect(secondPlus).toHaveCSS("opacity", "1");
  await page.keyboard.press("Enter");
  await expect(insertDialog).toBeVisible();
  await expect(insertDialog.getByRole("searchbox", { name: "Search tools" })).toBeFocused();
  await tabTo(page, insertDialog.getByRole("button", { name: /^Router/ }));
  await page.keyboard.press("Enter");
  await expect(insertDialog).toBeHidden();
  await expect(canvas.getByRole("group", { name: "Connection from Read a File to Router" })).toBeAttached();
  await expect(canvas.getByRole("group", { name: /^Connection from Router to Output/ })).toBeAttached();

  // 3. A palette item dropped onto an edge goes into it: a third of the way along the edge, away from its +.
  await page.getByRole("toolbar", { name: "Workflow" }).getByRole("button", { name: "Fit view" }).click();
  const lastEdge = canvas.getByRole("group", { name: /^Connection from Router to Output/ });
  await expect(lastEdge).toBeAttached();
  // The fitted view animates: read the point on the edge once the edge stands still.
  await stillBox(lastEdge);
  const onEdge = await lastEdge.evaluate((group) => {
    const path = group.querySelector<SVGPathElement>("path.react-flow__edge-path")!;
    const at = path.getPointAtLength(path.getTotalLength() / 3);
    const matrix = path.getScreenCTM()!;
    return { x: at.x * matrix.a + at.y * matrix.c + matrix.e, y: at.x * matrix.b + at.y * matrix.d + matrix.f };
  });
  const palette = page.getByRole("navigation", { name: "Node palette" });
  const canvasBox = (await canvas.boundingBox())!;
  await palette.getByRole("button", { name: "Write a File", exact: true }).dragTo(canvas, { targetPosition: { x: onEdge.x - canvasBox.x, y: onEdge.y - canvasBox.y } });
  await expect(canvas.getByRole("group", { name: /^Connection from Router to Write a File/ })).toBeAttached();
  await expect(canvas.getByRole("group", { name: "Connection from Write a File to Output" })).toBeAttached();
  await snap(page, testInfo, "three steps inserted");

  // The new step's inspector: each Fixed / From… button names its field, and the folder picker says where it is.
  const writeInspector = page.getByRole("region", { name: "Inspector: Write a File" });
  await expect(writeInspector.getByRole("button", { name: "Path from…", exact: true })).toBeVisible();
  await expect(writeInspector.getByRole("button", { name: "Content from…", exact: true })).toBeVisible();
  await writeInspector.getByRole("button", { name: "Browse…" }).click();
  const picker = page.getByRole("dialog", { name: "Choose a folder" });
  // The field is empty: the picker starts at the first folder it may show, with no error.
  await expect(picker.getByTestId("current-folder")).toHaveText(realpathSync(workspace()));
  await expect(picker.getByRole("alert")).toHaveCount(0);
  await expect(picker.getByRole("button", { name: "Up to the parent folder" })).toBeDisabled();
  await expect(picker.getByText("The top of the folders the studio may show")).toBeVisible();
  await snap(page, testInfo, "folder picker");
  await picker.getByRole("button", { name: "Choose this folder" }).click();
  await expect(writeInspector.getByRole("textbox", { name: "Folder" })).toHaveValue(realpathSync(workspace()));

  await page.keyboard.press("Control+s");
  await expect(toolbarStatus).toHaveText("Saved");
  expect(await savedChain(page, id)).toEqual(["input", expect.stringMatching(/^read_file/), expect.stringMatching(/^router/), expect.stringMatching(/^write_file/), "output"]);
});
