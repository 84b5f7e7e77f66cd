import type { APIRequestContext } from "@playwright/test";
import type { WorkflowDefinitionInput } from "@/lib/workflow/definition";
import { expect, test } from "./fixtures/test";
import { blockingViolations } from "./fixtures/accessibility";
import { runStatus, startRun } from "./fixtures/approvals";
import { canvasCard, createWorkflow, snap, uniqueName, workspace } from "./fixtures/studio";

/**
 * The Code node as a person uses it: JavaScript in a real code editor in the inspector, run alone on the pinned
 * outputs of the two steps before it (joining their lists), a syntax error underlined and named on the field before
 * any run, and a Code step inside a For each body reading its item.
 */

/** Run inputs → Customers, Orders (read_file steps, pinned by the test) → Join (code) → Output. */
function joinWorkflow(name: string): WorkflowDefinitionInput {
  const read = (id: string, label: string, y: number) => ({ id, kind: "tool" as const, label, position: { x: 300, y }, tool: "read_file", settings: { root: workspace() }, arguments: { path: `${id}.json` } });
  return {
    name,
    nodes: [
      { id: "input", kind: "input", position: { x: 0, y: 100 }, fields: [] },
      read("customers", "Customers", 0),
      read("orders", "Orders", 200),
      { id: "join", kind: "code", label: "Join", position: { x: 600, y: 100 }, code: "return [];" },
      { id: "output", kind: "output", position: { x: 900, y: 100 }, value: "{{ nodes.join.data }}" },
    ],
    edges: [
      { id: "a", source: "input", target: "customers" },
      { id: "b", source: "input", target: "orders" },
      { id: "c", source: "customers", target: "join" },
      { id: "d", source: "orders", target: "join" },
      { id: "e", source: "join", target: "output" },
    ],
  };
}

async function pin(request: APIRequestContext, workflowId: string, nodeId: string, data: unknown): Promise<void> {
  const response = await request.put(`/api/workflows/${workflowId}/pins/${nodeId}`, { data: { output: { content: JSON.stringify(data), data } } });
  expect(response.status(), await response.text()).toBe(200);
}

const JOIN_CODE = [
  "const names = Object.fromEntries(nodes.customers.data.rows.map((c) => [c.id, c.name]));",
  "return nodes.orders.data.rows.map((o) => names[o.customer] + ' spent ' + o.total);",
].join("\n");

test("write a Code node that joins two upstream lists, run it on the pins and see the result; a syntax error is named on the field", async ({ page, request }, testInfo) => {
  const workflowId = await createWorkflow(request, joinWorkflow(uniqueName("Join orders", testInfo)));
  await pin(request, workflowId, "customers", { rows: [{ id: 1, name: "Ann" }, { id: 2, name: "Bo" }] });
  await pin(request, workflowId, "orders", { rows: [{ customer: 2, total: 5 }, { customer: 1, total: 30 }] });

  await page.goto(`/workflows/${workflowId}`);
  await expect(canvasCard(page, "Join")).toContainText("JavaScript, once");
  await canvasCard(page, "Join").click();
  const inspector = page.getByRole("region", { name: "Inspector: Join" });
  const code = inspector.getByRole("textbox", { name: "Code" });
  await expect(code).toHaveText("return [];");

  // A syntax error: named with its line and column on the field, and underlined in the editor, before any run.
  await code.click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type("const total = 1;\nreturn total +;", { delay: 5 });
  await expect(code).toHaveAccessibleDescription(/Line 2, column \d+: .*SyntaxError/i);
  await expect(inspector.locator(".cm-lintRange-error")).toHaveCount(1);
  await snap(page, testInfo, "a syntax error on the code field");

  // The join, typed with the editor's completions of the upstream fields.
  await code.click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.press("Delete");
  await page.keyboard.type("nodes.cust", { delay: 5 });
  const completion = page.getByRole("option", { name: /nodes\.customers/ }).first();
  await expect(completion).toBeVisible();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.press("Delete");
  // The editor closes brackets as they are typed: the text goes in as one insertion, as a paste would.
  await page.keyboard.insertText(JOIN_CODE);
  await expect(code).not.toHaveAccessibleDescription(/Line \d/);
  await expect(page.getByText("Ready to run")).toBeVisible();

  const testing = inspector.getByRole("region", { name: "Test this step" });
  await expect(testing.getByRole("list", { name: "What Run this step uses" })).toContainText("Customers: its pinned output");
  await testing.getByRole("button", { name: "Run this step" }).click();
  const result = testing.getByRole("region", { name: "Test run result" });
  await expect(result.getByText("succeeded", { exact: true }).first()).toBeVisible();
  await expect(result).toContainText("Bo spent 5");
  await expect(result).toContainText("Ann spent 30");
  await snap(page, testInfo, "the join run on the pins, its result in the inspector");
  expect(await blockingViolations(page, "the editor with a Code node's inspector")).toEqual([]);
});

test("a Code step inside a For each body reads its item and index", async ({ page, request }, testInfo) => {
  const workflowId = await createWorkflow(request, {
    name: uniqueName("Number the items", testInfo),
    nodes: [
      { id: "input", kind: "input", position: { x: 0, y: 0 }, fields: [{ name: "names", required: true }] },
      { id: "split", kind: "code", label: "Split", position: { x: 300, y: 0 }, code: "return inputs.names.split(',');" },
      { id: "loop", kind: "foreach", label: "Each name", position: { x: 600, y: 0 }, list: "{{ nodes.split.data }}" },
      { id: "number", kind: "code", label: "Number it", position: { x: 900, y: -120 }, code: "return `${index + 1}. ${item.trim()}`;" },
      { id: "output", kind: "output", position: { x: 900, y: 120 }, value: "{{ nodes.loop.data }}" },
    ],
    edges: [
      { id: "a", source: "input", target: "split" },
      { id: "b", source: "split", target: "loop" },
      { id: "c", source: "loop", target: "number", sourceHandle: "item" },
      { id: "d", source: "loop", target: "output", sourceHandle: "done" },
    ],
  });
  const runId = await startRun(request, workflowId, { names: "Ann, Bo,Cy" });
  await expect.poll(() => runStatus(request, runId), { timeout: 60_000 }).toBe("succeeded");
  const detail = (await (await request.get(`/api/runs/${runId}`)).json()) as { run: { output: unknown } };
  expect(detail.run.output).toEqual(["1. Ann", "2. Bo", "3. Cy"]);

  await page.goto(`/runs/${runId}`);
  await expect(canvasCard(page, "Number it")).toContainText("in For each “Each name”");
  await canvasCard(page, "Split").click();
  await expect(page.getByText('["Ann"," Bo","Cy"]')).toBeVisible();
  await snap(page, testInfo, "a run with Code steps, one in a For each body");
});
