import { expect, test } from "./fixtures/test";
import { blockingViolations } from "./fixtures/accessibility";
import { plantFile } from "./fixtures/approvals";
import { canvasCard, createWorkflow, snap, uniqueName, workspace } from "./fixtures/studio";

/**
 * Mapping a field from real data: the step a field reads from is pinned, so
 * the "From…" picker lists the fields of its pinned output as a tree (nested,
 * arrays by index, with their values); a person picks a nested field with the
 * keyboard and sees the value the field will receive; typing `{{` offers the
 * same fields as completions; a template naming no node is a problem on the
 * field.
 */

/** Run inputs (a folder, by default "out") → Read the people → Save the person (its path and content are templates). */
function readThenSave(name: string, readPath = "people.json") {
  return {
    name,
    mode: "default" as const,
    nodes: [
      { id: "input", kind: "input" as const, position: { x: 0, y: 100 }, fields: [{ name: "folder", required: false, default: "out" }] },
      { id: "read", kind: "tool" as const, label: "Read the people", position: { x: 300, y: 100 }, tool: "read_file", settings: { root: workspace() }, arguments: { path: readPath } },
      {
        id: "save",
        kind: "tool" as const,
        label: "Save the person",
        position: { x: 600, y: 100 },
        tool: "write_file",
        settings: { root: workspace() },
        arguments: { path: "{{ inputs.folder }}/person.txt", content: "{{ nodes.read.output }}" },
      },
    ],
    edges: [
      { id: "input-read", source: "input", target: "read" },
      { id: "read-save", source: "read", target: "save" },
    ],
  };
}

test("map a field from the picker and see its preview; complete a template after {{", async ({ page, request }, testInfo) => {
  const id = await createWorkflow(request, readThenSave(uniqueName("People", testInfo)));
  await page.goto(`/workflows/${id}`);
  await canvasCard(page, "Save the person").click();
  let inspector = page.getByRole("region", { name: "Inspector: Save the person" });
  const content = () => inspector.getByRole("combobox", { name: "Content", exact: true });

  // Nothing ran and nothing is pinned: the preview says what to do.
  await expect(inspector.getByText("Preview: Run or pin “Read the people” to preview.")).toBeVisible();

  const pinned = await request.put(`/api/workflows/${id}/pins/read`, {
    data: { output: { content: "2 people", data: { people: [{ name: "Ada Lovelace", address: { city: "London" } }, { name: "Grace Hopper" }] } } },
  });
  expect(pinned.status(), await pinned.text()).toBe(200);
  await page.reload();
  await canvasCard(page, "Save the person").click();
  inspector = page.getByRole("region", { name: "Inspector: Save the person" });
  await expect(content()).toHaveAccessibleDescription(/Preview:\s*2 people\s*text/);

  // The picker: a tree of the pinned output's fields, walked with the keyboard.
  await inspector.getByRole("button", { name: "Use a value from… for Content" }).click();
  const tree = inspector.getByRole("tree", { name: "Values for Content" });
  await expect(tree.getByRole("treeitem", { name: /^Read the people \(read\)\s*pinned$/ })).toBeVisible();
  await expect(tree.getByRole("treeitem", { name: /^Run inputs/ })).toBeFocused();
  const people = tree.getByRole("treeitem", { name: /^people\s*array\s*\[2 items\]$/ });
  for (let step = 0; step < 5; step += 1) await page.keyboard.press("ArrowDown");
  await expect(people).toBeFocused();
  await expect(people).toHaveAttribute("aria-expanded", "false");
  await page.keyboard.press("ArrowRight");
  await expect(people).toHaveAttribute("aria-expanded", "true");
  await page.keyboard.press("ArrowRight");
  const first = tree.getByRole("treeitem", { name: /^\[0\] first item/ });
  await expect(first).toBeFocused();
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  const name = tree.getByRole("treeitem", { name: /^name\s*text\s*"Ada Lovelace"$/ });
  await expect(name).toBeFocused();
  await expect(name).toHaveAttribute("aria-level", "5");
  expect(await blockingViolations(page, "the editor with the field picker open")).toEqual([]);
  await snap(page, testInfo, "the From picker, a nested field chosen");
  await page.keyboard.press("Enter");
  await expect(tree).toBeHidden();
  await expect(content()).toHaveValue("{{ nodes.read.data.people[0].name }}");
  await expect(content()).toHaveAccessibleDescription(/Ada Lovelace/);

  // Typing {{ offers the same fields, filtered as typed; Enter accepts, Escape closes.
  const path = inspector.getByRole("combobox", { name: "Path", exact: true });
  await path.fill("");
  await path.pressSequentially("{{ fold");
  const completions = inspector.getByRole("listbox", { name: "Completions for Path" });
  await expect(completions.getByRole("option")).toHaveText([/^inputs\.folder/]);
  await expect(path).toHaveAttribute("aria-expanded", "true");
  await expect(path).toHaveAttribute("aria-activedescendant", (await completions.getByRole("option").first().getAttribute("id"))!);
  await page.keyboard.press("Enter");
  await expect(completions).toBeHidden();
  await expect(path).toHaveValue("{{ inputs.folder }}");
  await expect(path).toHaveAccessibleDescription(/out/);
  await path.pressSequentially("/{{ nodes.read.data.people");
  await expect(completions.getByRole("option")).toHaveText([
    /^nodes\.read\.data\.people\s*array/,
    /^nodes\.read\.data\.people\[0\]\s*object/,
    /^nodes\.read\.data\.people\[0\]\.name\s*text\s*"Ada Lovelace"/,
    /^nodes\.read\.data\.people\[0\]\.address\s*object/,
    /^nodes\.read\.data\.people\[0\]\.address\.city\s*text\s*"London"/,
    /^nodes\.read\.data\.people\[1\]\s*object/,
    /^nodes\.read\.data\.people\[1\]\.name/,
  ]);
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Tab");
  await expect(path).toHaveValue("{{ inputs.folder }}/{{ nodes.read.data.people[0] }}");
  await path.pressSequentially(" {{");
  await expect(completions).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(completions).toBeHidden();
  await expect(path).toHaveValue("{{ inputs.folder }}/{{ nodes.read.data.people[0] }} {{");

  // A template that points at no node is a problem on its field, naming what it could be.
  await path.fill("{{ nodes.ghost.output }}");
  await expect(inspector.getByText(/there is no node "ghost"; expected a node upstream of this one: read/)).toBeVisible();
  await expect(path).toHaveAttribute("aria-invalid", "true");
});

test("a step whose upstream ran: the picker lists the run's output, marked with its run, and the field previews it", async ({ page, request }, testInfo) => {
  const file = `field-mapping-${testInfo.testId.slice(0, 8)}-${Date.now().toString(36)}.txt`;
  plantFile(file, "Ada Lovelace\nGrace Hopper\n");
  const id = await createWorkflow(request, readThenSave(uniqueName("People ran", testInfo), file));
  await page.goto(`/workflows/${id}`);

  // Run the read alone from its inspector: its output becomes the sample the next step maps from.
  await canvasCard(page, "Read the people").click();
  const testing = page.getByRole("region", { name: "Inspector: Read the people" }).getByRole("region", { name: "Test this step" });
  await testing.getByRole("button", { name: "Run this step" }).click();
  await expect(testing.getByRole("region", { name: "Test run result" })).toContainText("Grace Hopper");

  await canvasCard(page, "Save the person").click();
  const inspector = page.getByRole("region", { name: "Inspector: Save the person" });
  const content = inspector.getByRole("combobox", { name: "Content", exact: true });
  await expect(content).toHaveAccessibleDescription(/Preview:.*Ada Lovelace/);
  await inspector.getByRole("button", { name: "Use a value from… for Content" }).click();
  const tree = inspector.getByRole("tree", { name: "Values for Content" });
  await expect(tree.getByRole("treeitem", { name: /^Read the people \(read\)\s*from run #[A-Z0-9]{6}$/ })).toBeVisible();
  const lines = tree.getByRole("treeitem", { name: /^totalLines\s*number\s*2$/ });
  await lines.click();
  await expect(content).toHaveValue("{{ nodes.read.data.totalLines }}");
  await expect(content).toHaveAccessibleDescription(/Preview:\s*2\s*number/);
});
