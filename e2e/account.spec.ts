import { sidewaysOverflow, SCREEN_SIZES } from "./fixtures/accessibility";
import { expect, test } from "./fixtures/test";
import { ageSessions, snap, whenHydrated } from "./fixtures/studio";

/**
 * Settings → Account, as a person who joined by invitation uses it: they
 * change the name others see (the header says it), make a token with one
 * scope that a script then uses (what the scope allows answers, the rest is
 * refused), revoke it (it stops at once), and change their password (a wrong
 * current one first), sign in elsewhere with the new one, and confirm it is
 * them with it before signing that browser out. On a phone nothing scrolls
 * sideways.
 */
/**
 * The studio is shared by the specs that run after this one: the sign-in page offers the token first and the Share
 * dialog names nobody while no other active person has a password. Deactivated, this person is out of both.
 */
test.afterEach(async ({ request }, testInfo) => {
  const login = `edie-${testInfo.testId.slice(0, 6)}`;
  const { people } = (await (await request.get("/api/people")).json()) as { people: { id: string; login: string }[] };
  for (const person of people.filter((each) => each.login === login)) {
    expect((await request.patch(`/api/people/${person.id}`, { data: { active: false } })).status()).toBe(200);
  }
});

test("a person changes their name, makes, uses and revokes a token, and changes their password", async ({ browser, request, baseURL }, testInfo) => {
  const suffix = testInfo.testId.slice(0, 6);
  const login = `edie-${suffix}`;
  const password = "correct horse battery staple";
  const newPassword = "a longer walk by the quiet sea";

  // The owner invites an editor; they join in a browser of their own.
  const invited = await request.post("/api/people/invitations", { data: { role: "editor", note: `Edie ${suffix}` } });
  expect(invited.status()).toBe(201);
  const { link } = (await invited.json()) as { link: string };
  const theirs = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] }, permissions: ["clipboard-read", "clipboard-write"] });
  const page = await theirs.newPage();
  await page.goto(link);
  await page.getByRole("textbox", { name: "Sign-in name" }).fill(login);
  await page.getByRole("textbox", { name: "Your name" }).fill(`Edie ${suffix}`);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Join" }).click();
  await expect(page).toHaveURL(/\/workflows$/);

  // Their account, from the name in the header.
  await page.getByRole("banner").getByRole("link", { name: /your account/ }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Your account" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Account" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("definition").filter({ hasText: login })).toBeVisible();
  await expect(page.getByRole("definition").filter({ hasText: "Editor" })).toBeVisible();

  // A new name: the header says it.
  const renamed = `Edith ${suffix}`;
  const name = page.getByRole("textbox", { name: "Your name" });
  await whenHydrated(name);
  await name.fill(renamed);
  await page.getByRole("button", { name: "Save name" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Others see you as ${renamed}` })).toBeVisible();
  await expect(page.getByRole("banner")).toContainText(renamed);

  // A token, made by keyboard: an empty name is refused in place first, naming the field.
  const make = page.getByRole("button", { name: "Make a token" });
  await make.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Make a token" });
  await expect(dialog).toBeVisible();
  // Only the person's own scopes are offered: an editor's, without approval:decide or people:manage.
  await expect(dialog.getByRole("checkbox")).toHaveCount(7);
  await expect(dialog.getByRole("checkbox", { name: /approval:decide/ })).toHaveCount(0);
  await dialog.getByRole("button", { name: "Make token" }).click();
  const tokenName = dialog.getByRole("textbox", { name: "Name" });
  await expect(tokenName).toHaveAttribute("aria-invalid", "true");
  await expect(dialog.getByText("give the token a name: say what will use it (a script, the CLI, an MCP client)")).toBeVisible();
  await expect(dialog.getByText("choose at least one scope")).toBeVisible();
  await expect(tokenName).toBeFocused();
  await snap(page, testInfo, "account: the token dialog refuses an empty name");
  await page.keyboard.type("nightly report");
  await page.keyboard.press("Tab");
  await expect(dialog.getByRole("checkbox", { name: /workflow:read/ })).toBeFocused();
  await page.keyboard.press("Space");
  await dialog.getByRole("combobox", { name: "Works for" }).selectOption({ label: "7 days" });
  await dialog.getByRole("button", { name: "Make token" }).click();

  // Shown once, to copy.
  const made = page.getByRole("dialog", { name: "Token made" });
  const token = await made.getByRole("textbox", { name: "Token" }).inputValue();
  expect(token).toMatch(/^nsp_/);
  await expect(made.getByRole("note")).toContainText("it is not shown again");
  await made.getByRole("button", { name: "Copy token" }).click();
  await expect(made.getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
  await snap(page, testInfo, "account: the token, shown once");
  await made.getByRole("button", { name: "Done" }).click();
  const row = page.getByRole("row").filter({ hasText: "nightly report" });
  await expect(row).toContainText("workflow:read");
  // Cells after the name (the row's header): scopes, made, expires, last used.
  await expect(row.getByRole("cell").nth(2)).toHaveText(/in [67] days|next week/);
  await expect(row.getByRole("cell").nth(3)).toHaveText(/never/);

  // A script with it: what its scope allows answers, the rest is refused naming the scope.
  const bearer = { Authorization: `Bearer ${token}` };
  expect((await request.get("/api/workflows", { headers: bearer })).status()).toBe(200);
  const refused = await request.post("/api/workflows", { headers: bearer, data: { name: "Not with this token", nodes: [], edges: [] } });
  expect(refused.status()).toBe(403);
  expect(((await refused.json()) as { error: string }).error).toMatch(/workflow:edit/);
  await page.reload();
  await expect(page.getByRole("row").filter({ hasText: "nightly report" }).getByRole("cell").nth(3)).toHaveText(/just now/);

  // Revoked, after saying which: it stops at once.
  await whenHydrated(page.getByRole("button", { name: "Revoke nightly report" }));
  await page.getByRole("button", { name: "Revoke nightly report" }).click();
  const revoking = page.getByRole("dialog", { name: "Revoke “nightly report”?" });
  await expect(revoking).toContainText("Whatever uses “nightly report” is refused");
  await revoking.getByRole("button", { name: "Revoke token" }).click();
  await expect(page.getByRole("row").filter({ hasText: "nightly report" })).toContainText("revoked");
  await expect(page.getByRole("button", { name: "Revoke nightly report" })).toHaveCount(0);
  expect((await request.get("/api/workflows", { headers: bearer })).status()).toBe(401);
  await snap(page, testInfo, "account: the token revoked");

  // The password: a wrong current one is refused on its field; then the right one.
  const current = page.getByLabel("Current password", { exact: true });
  await current.fill("not my password at all");
  await page.getByLabel("New password", { exact: true }).fill(newPassword);
  await page.getByLabel("Repeat the new password").fill(newPassword);
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(current).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("that is not your current password")).toBeVisible();
  await snap(page, testInfo, "account: a wrong current password");
  await current.fill(password);
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Password saved" })).toBeVisible();
  await expect(current).toHaveValue("");

  // On a phone: nothing scrolls sideways, the tokens are cards.
  await page.setViewportSize(SCREEN_SIZES.phone.viewport);
  await expect(page.getByRole("button", { name: "Make a token" })).toBeVisible();
  expect(await sidewaysOverflow(page)).toBe(0);
  await snap(page, testInfo, "account: on a phone");

  // Another browser signs in with the new password; the old one no longer works.
  await page.setViewportSize({ width: 1280, height: 800 });
  const second = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  const other = await second.newPage();
  await other.goto("/login");
  await other.getByLabel("Sign-in name").fill(login);
  await other.getByLabel("Password", { exact: true }).fill(password);
  await other.getByRole("button", { name: "Sign in" }).click();
  await expect(other.getByText("That password is not right.")).toBeVisible();
  await other.getByLabel("Password", { exact: true }).fill(newPassword);
  await other.getByRole("button", { name: "Sign in" }).click();
  await expect(other.getByRole("banner")).toContainText(renamed);

  // Ten minutes on, signing that browser out asks who they are again: for their password, as they hold no access token.
  ageSessions(login);
  await page.goto("/settings/security");
  await whenHydrated(page.getByRole("button", { name: "Sign out 1 other" }));
  await page.getByRole("button", { name: "Sign out 1 other" }).click();
  const confirm = page.getByRole("dialog", { name: "Confirm it is you" });
  await expect(confirm).toContainText("would let whoever sits at this one lock you out of the others, so confirm it is you first: enter your password again.");
  const proof = confirm.getByLabel("Password", { exact: true });
  await proof.fill(password);
  await confirm.getByRole("button", { name: "Confirm" }).click();
  await expect(confirm.getByText("That password is not right.")).toBeVisible();
  await snap(page, testInfo, "account: confirm it is you, with the person's own password");
  await proof.fill(newPassword);
  await confirm.getByRole("button", { name: "Confirm" }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByRole("status").filter({ hasText: "Signed out every other browser." })).toBeVisible();
  expect((await second.request.get("/api/me")).status()).toBe(401);
  await second.close();
  await theirs.close();
});
