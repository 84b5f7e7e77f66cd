import { expect, test as setup } from "@playwright/test";
import { signInLink } from "./fixtures/studio";

/**
 * Signs the browser in the way a person does on a fresh start: by opening the
 * link the studio printed. Every other test starts from the state saved here.
 */
setup("sign in with the printed link", async ({ page }) => {
  await page.goto(signInLink("/workflows"));
  await expect(page).toHaveURL(/\/workflows$/);
  expect(page.url()).not.toContain("token=");
  await expect(page.getByRole("heading", { name: "Workflows", level: 1 })).toBeVisible();
  await page.context().storageState({ path: process.env.E2E_SIGNED_IN_STATE! });
});
