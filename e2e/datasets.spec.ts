import { expect, test } from "./fixtures/test";
import { runStatus, startRun } from "./fixtures/approvals";
import { createWorkflow, uniqueName } from "./fixtures/studio";

/**
 * A workflow's evaluation datasets, as a person makes them: from the editor's Datasets link, a CSV with a bad row is
 * refused with the row named by its line and nothing made; the fixed file makes a dataset whose rows show as read;
 * past runs make another; one is deleted after a confirmation.
 */

const greeter = (name: string) => ({
  name,
  nodes: [
    { id: "in", kind: "input" as const, position: { x: 0, y: 0 }, fields: [{ name: "who", type: "string" as const, required: true }, { name: "times", type: "number" as const, required: false, default: 1 }] },
    { id: "out", kind: "output" as const, position: { x: 300, y: 0 }, value: "Hello {{ inputs.who }}" },
  ],
  edges: [{ id: "in-out", source: "in", target: "out" }],
});

test("datasets are made from a file (bad rows named by line) and from past runs, shown row by row, and deleted", async ({ page, request }, testInfo) => {
  const name = uniqueName("Greeter datasets", testInfo);
  const id = await createWorkflow(request, greeter(name));
  const run = await startRun(request, id, { who: "Ada" });
  await expect.poll(() => runStatus(request, run)).toBe("succeeded");

  // Reached from the workflow's Activity page (the editor's toolbar links it).
  await page.goto(`/workflows/${id}`);
  await page.getByRole("link", { name: "Activity", exact: true }).click();
  await page.getByRole("link", { name: "Datasets", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Datasets" })).toBeVisible();
  await expect(page.getByText("No datasets yet")).toBeVisible();

  const upload = page.getByRole("form", { name: "Upload a file" });
  await upload.getByRole("button", { name: "Upload" }).click();
  await expect(upload.getByText("give the dataset a name")).toBeVisible();
  await expect(upload.getByText("choose a CSV or JSON Lines file")).toBeVisible();

  await upload.getByLabel("Name").fill("Greetings");
  const file = (text: string) => ({ name: "greetings.csv", mimeType: "text/csv", buffer: Buffer.from(text) });
  await upload.getByLabel("File").setInputFiles(file("who,times,expected\nAda,2,Hello Ada\n,3,Hello nobody\nGrace,many,Hello Grace\n"));
  await upload.getByRole("button", { name: "Upload" }).click();
  const problems = upload.getByRole("alert").filter({ hasText: "Nothing was made" });
  await expect(problems).toContainText("2 rows cannot be run");
  await expect(problems).toContainText("line 3: who is required");
  await expect(problems).toContainText("line 4: times: expected a number, got \"many\"");
  await expect(page.getByTestId("dataset")).toHaveCount(0);
  if (process.env.E2E_SHOTS_DIR) await page.screenshot({ path: `${process.env.E2E_SHOTS_DIR}/datasets-bad-rows.png`, fullPage: true });

  await upload.getByLabel("File").setInputFiles(file("who,times,expected\nAda,2,Hello Ada\nGrace,,Hello Grace\n"));
  await upload.getByRole("button", { name: "Upload" }).click();
  const greetings = page.getByTestId("dataset").filter({ hasText: "Greetings" });
  await expect(greetings).toContainText("2 rows, 2 with an expected output · from CSV file");
  await greetings.getByRole("button", { name: "Show rows" }).click();
  const rows = greetings.getByRole("table", { name: "Rows of Greetings" });
  await expect(rows.getByRole("row")).toHaveCount(3);
  await expect(rows.getByRole("row").nth(2)).toContainText("Grace");
  await expect(rows.getByRole("row").nth(2)).toContainText("1");

  const fromRuns = page.getByRole("form", { name: "From past runs" });
  await fromRuns.getByRole("checkbox").first().check();
  await fromRuns.getByLabel("Name").fill("Yesterday's");
  await fromRuns.getByRole("button", { name: "Make a dataset of 1 run" }).click();
  await expect(page.getByTestId("dataset").filter({ hasText: "Yesterday's" })).toContainText("1 row, 1 with an expected output · from past runs");
  if (process.env.E2E_SHOTS_DIR) await page.screenshot({ path: `${process.env.E2E_SHOTS_DIR}/datasets.png`, fullPage: true });

  await greetings.getByRole("button", { name: "Delete Greetings" }).click();
  await page.getByRole("dialog", { name: "Delete “Greetings”?" }).getByRole("button", { name: "Delete dataset" }).click();
  await expect(page.getByTestId("dataset")).toHaveCount(1);
  await page.reload();
  await expect(page.getByTestId("dataset")).toHaveCount(1);
});
