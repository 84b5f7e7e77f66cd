import path from "node:path";
import { expect, test } from "./fixtures/test";
import { canvasCard, createWorkflow, FIXTURES, snap, uniqueName, whenHydrated, workspace, writeWorkflow } from "./fixtures/studio";

/** Forms fed bad input say, on the field, what they expect. */

test("a secret name in lower case with a space is refused inline, naming what is expected", async ({ page }, testInfo) => {
  await page.goto("/settings/secrets");
  await page.getByRole("button", { name: "New secret", exact: true }).click();
  const create = page.getByRole("dialog", { name: "New secret" });
  const nameField = create.getByRole("textbox", { name: "Name", exact: true });
  await nameField.fill("db url");
  await create.getByRole("textbox", { name: "Value", exact: true }).fill("sqlite:///tmp/example.db");
  await create.getByRole("button", { name: "Save secret" }).click();

  await expect(nameField).toHaveAttribute("aria-invalid", "true");
  await expect(create.getByRole("alert")).toHaveText(/upper-case letters, digits and _/);
  await expect(nameField).toHaveAccessibleDescription(/upper-case letters, digits and _, not starting with a digit \(e\.g\. DB_URL\)/);
  await snap(page, testInfo, "secret name refused");

  // Fixed, it saves.
  await nameField.fill("EXAMPLE_DB_URL");
  await expect(create.getByRole("alert")).toHaveCount(0);
  await create.getByRole("button", { name: "Save secret" }).click();
  await expect(create).toBeHidden();
  await expect(page.getByRole("rowheader", { name: "EXAMPLE_DB_URL" })).toBeVisible();
});

test("starting a run without a required input shows the error on that input", async ({ page, request }, testInfo) => {
  const id = await createWorkflow(request, writeWorkflow(uniqueName("Needs a message", testInfo), "never-written.txt"));
  await page.goto(`/workflows/${id}`);
  await expect(page.getByText("Ready to run")).toBeVisible();
  await page.getByRole("button", { name: "Run", exact: true }).click();
  const runDialog = page.getByRole("dialog", { name: "Run the workflow" });
  await runDialog.getByRole("button", { name: "Start run" }).click();

  const message = runDialog.getByRole("textbox", { name: "Message", exact: true });
  await expect(message).toHaveAttribute("aria-invalid", "true");
  await expect(message).toHaveAccessibleDescription("Fill in Message: the run needs it.");
  await expect(page).toHaveURL(new RegExp(`/workflows/${id}$`));
  await snap(page, testInfo, "run refused: Message is required");
});

test("a relative folder in a step's settings shows the server's problem on the field", async ({ page, request }, testInfo) => {
  const definition = writeWorkflow(uniqueName("Relative folder", testInfo), "never-written.txt");
  const id = await createWorkflow(request, definition);
  await page.goto(`/workflows/${id}`);
  await expect(page.getByText("Ready to run")).toBeVisible();

  await canvasCard(page.getByRole("application", { name: "Workflow canvas" }), "Write a File").click();
  const inspector = page.getByRole("region", { name: "Inspector: Write a File" });
  const folder = inspector.getByRole("textbox", { name: "Folder", exact: true });
  await expect(folder).toHaveValue(workspace());
  await folder.fill("reports/weekly");

  await expect(folder).toHaveAttribute("aria-invalid", "true");
  await expect(folder).toHaveAccessibleDescription(/Expected an absolute folder path, got "reports\/weekly"/);
  await expect(page.getByText("1 problem", { exact: true })).toBeVisible();
  await snap(page, testInfo, "relative folder flagged on the field");

  // An absolute folder clears it.
  await folder.fill(workspace());
  await expect(folder).not.toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("Ready to run")).toBeVisible();
});

test("importing a CSV as a workflow explains that it is not a workflow file", async ({ page }, testInfo) => {
  await page.goto("/workflows");
  await whenHydrated(page.getByLabel("Import JSON"));
  await page.getByLabel("Import JSON").setInputFiles(path.join(FIXTURES, "people.csv"));
  const failure = page.getByRole("dialog", { name: "The file could not be imported" });
  await expect(failure).toContainText("“people.csv” is not valid JSON");
  await snap(page, testInfo, "CSV refused as a workflow");
  await failure.getByRole("button", { name: "Close" }).click();
  await expect(failure).toBeHidden();
});
