import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures/test";
import { runStatus, startRun } from "./fixtures/approvals";
import { createWorkflow, snap, uniqueName, whenHydrated } from "./fixtures/studio";

/**
 * The lists at scale, as a person uses them: search by name, filter, order,
 * and the next page and the first page again, each in the page's address (so
 * Back returns to the page before), with the count of what matches. Pages of
 * two here (`limit=2` in the address), so a few rows make several pages.
 */

const finishing = (name: string) => ({
  name,
  nodes: [
    { id: "in", kind: "input" as const, position: { x: 0, y: 0 }, fields: [] },
    { id: "out", kind: "output" as const, position: { x: 300, y: 0 }, value: "done" },
  ],
  edges: [{ id: "in-out", source: "in", target: "out" }],
});

async function search(page: Page, box: string, text: string) {
  const searchbox = page.getByRole("searchbox", { name: box });
  await whenHydrated(searchbox);
  await searchbox.fill(text);
  await searchbox.press("Enter");
}

function rowLinks(page: Page) {
  return page.getByRole("table").getByRole("row").getByRole("link", { name: /^(?!Open)/ });
}

test("the workflows list: search, order by name, next page and back", async ({ page, request }, testInfo) => {
  const prefix = uniqueName("Paged", testInfo);
  for (const letter of ["Cedar", "Alder", "Birch"]) await createWorkflow(request, finishing(`${prefix} ${letter}`));

  await page.goto("/workflows?limit=2");
  await search(page, "Search workflows", prefix);
  await expect(page).toHaveURL(/search=/);
  await expect(page.getByTestId("list-count")).toHaveText(`3 workflows named like “${prefix}”`);
  // Newest change first: the last made on top.
  await expect(rowLinks(page)).toHaveText([`${prefix} Birch`, `${prefix} Alder`]);

  await page.getByRole("combobox", { name: "Order" }).selectOption({ label: "Name, A to Z" });
  await expect(page).toHaveURL(/sort=name/);
  await expect(rowLinks(page)).toHaveText([`${prefix} Alder`, `${prefix} Birch`]);
  await snap(page, testInfo, "workflows searched and ordered by name");

  await page.getByRole("navigation", { name: "Pages of workflows" }).getByRole("link", { name: "Next page" }).click();
  await expect(page).toHaveURL(/cursor=/);
  await expect(rowLinks(page)).toHaveText([`${prefix} Cedar`]);
  await expect(page.getByRole("link", { name: "Next page" })).toHaveCount(0);
  // The row's actions work on a later page as on the first.
  await expect(page.getByRole("button", { name: `Rename ${prefix} Cedar`, exact: true })).toBeVisible();

  await page.goBack();
  await expect(rowLinks(page)).toHaveText([`${prefix} Alder`, `${prefix} Birch`]);
  await page.getByRole("navigation", { name: "Pages of workflows" }).getByRole("link", { name: "Next page" }).click();
  await page.getByRole("link", { name: "First page" }).click();
  await expect(page).not.toHaveURL(/cursor=/);
  await expect(rowLinks(page)).toHaveText([`${prefix} Alder`, `${prefix} Birch`]);

  await search(page, "Search workflows", `${prefix} nothing like it`);
  await expect(page.getByRole("heading", { name: "No workflow is named like that" })).toBeVisible();
  await expect(page.getByTestId("list-count")).toHaveText(`0 workflows named like “${prefix} nothing like it”`);
});

test("the runs list: search by workflow name, filter by status, next page and first page", async ({ page, request }, testInfo) => {
  const name = uniqueName("Paged runs", testInfo);
  const id = await createWorkflow(request, finishing(name));
  const runs: string[] = [];
  for (let index = 0; index < 3; index += 1) runs.push(await startRun(request, id));
  for (const runId of runs) await expect.poll(() => runStatus(request, runId), { timeout: 30_000 }).toBe("succeeded");

  await page.goto("/runs?limit=2");
  await search(page, "Search runs by workflow name", name);
  await expect(page.getByTestId("list-count")).toHaveText("3 runs match these filters");
  const links = () => page.getByRole("table").locator('a[href^="/runs/"]:not([aria-label])');
  await expect(links()).toHaveCount(2);
  await expect(page.getByRole("table").locator(`a[href="/runs/${runs[2]}"]`).first()).toBeVisible();

  await page.getByRole("navigation", { name: "Pages of runs" }).getByRole("link", { name: "Next page" }).click();
  await expect(page).toHaveURL(/cursor=/);
  await expect(links()).toHaveCount(1);
  await expect(page.getByRole("table").locator(`a[href="/runs/${runs[0]}"]`).first()).toBeVisible();
  await snap(page, testInfo, "runs: the second page of a search");
  await page.getByRole("link", { name: "First page" }).click();
  await expect(links()).toHaveCount(2);

  await page.getByRole("group", { name: "Filter runs by status" }).getByRole("button", { name: "Failed" }).click();
  await expect(page).toHaveURL(/status=failed/);
  await expect(page.getByRole("heading", { name: "No runs match these filters" })).toBeVisible();
  await expect(page.getByTestId("list-count")).toHaveText("0 runs match these filters");
  await page.getByRole("group", { name: "Filter runs by status" }).getByRole("button", { name: "Succeeded" }).click();
  await expect(page.getByTestId("list-count")).toHaveText("3 runs match these filters");

  await page.getByRole("combobox", { name: "Order" }).selectOption({ label: "Oldest first" });
  await expect(page).toHaveURL(/direction=asc/);
  await expect(page.getByRole("table").locator(`a[href="/runs/${runs[0]}"]`).first()).toBeVisible();
  await snap(page, testInfo, "runs: succeeded, oldest first");
});
