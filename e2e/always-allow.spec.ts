import { expect, test } from "./fixtures/test";
import { createWorkflow, snap, uniqueName, writeWorkflow } from "./fixtures/studio";

/**
 * "Always allow" from the inbox becomes a grant the workflow's settings list
 * (the folder, who allowed it, until when), and Revoke there takes it back.
 */
test("an Always allow given in the inbox is listed in the workflow's settings with its end, and revoked there", async ({ page, request }, testInfo) => {
  const name = uniqueName("Always allowed", testInfo);
  const folder = `granted-${testInfo.testId.slice(0, 8)}`;
  const id = await createWorkflow(request, writeWorkflow(name, `${folder}/note.txt`));
  const started = await request.post(`/api/workflows/${id}/runs`, { data: { inputs: { message: "first" } } });
  expect(started.status()).toBe(201);

  await page.goto("/inbox");
  const card = page.getByRole("article").filter({ hasText: name });
  await expect(card.getByText(/won’t ask again for this workflow, for 30 days/)).toBeVisible();
  await card.getByRole("button", { name: "Always allow" }).click();
  await expect(card.getByRole("status")).toContainText("Always");

  await page.goto(`/workflows/${id}`);
  const section = page.getByRole("region", { name: "Always allowed" });
  const grant = section.getByRole("listitem").filter({ hasText: `${folder}/**` });
  await expect(grant).toBeVisible();
  await expect(grant).toContainText("Allowed by");
  await expect(grant).toContainText("until");
  await grant.scrollIntoViewIfNeeded();
  await snap(page, testInfo, "workflow settings: always allowed, with its end");

  await grant.getByRole("button", { name: `Revoke: always allow ${folder}/**` }).click();
  await expect(section.getByText("Nothing: every file change asks as its rule says.")).toBeVisible();
  const listed = await (await request.get(`/api/workflows/${id}/grants`)).json();
  expect(listed.grants).toEqual([]);
});
