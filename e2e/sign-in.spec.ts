import { expect, test } from "./fixtures/test";
import { signInLink } from "./fixtures/studio";

/**
 * A person on a fresh start signs in by opening the link the studio printed: it leads on to the page it names and
 * leaves the token out of the address. (Every other test starts signed in this way: e2e/fixtures/worker-studio.ts.)
 */
test.use({ storageState: { cookies: [], origins: [] } });

test("sign in with the printed link", async ({ page }) => {
  await page.goto("/workflows");
  await expect(page).toHaveURL(/\/login/);
  await page.goto(signInLink("/workflows"));
  await expect(page).toHaveURL(/\/workflows$/);
  expect(page.url()).not.toContain("token=");
  await expect(page.getByRole("heading", { name: "Workflows", level: 1 })).toBeVisible();
});
