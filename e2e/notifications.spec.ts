import { pendingApprovalIds, startRun } from "./fixtures/approvals";
import { expect, test } from "./fixtures/test";
import { createWorkflow, snap, uniqueName, whenHydrated, writeWorkflow } from "./fixtures/studio";

/**
 * How a person hears of approvals (issue 30): on Settings → Account they
 * choose e-mail, browser notifications and a webhook of their own; a bad
 * webhook URL is said inline, beside the field, before anything is sent, and
 * the saved secret is shown masked. With the browser's permission, an
 * approval that newly waits for them while a studio tab is open shows the
 * browser's own notification, and clicking it opens the card.
 */

// A personal webhook would be tried for every approval the later specs make: the owner's is removed after each test.
test.afterEach(async ({ request }) => {
  expect((await request.put("/api/me/notifications", { data: { email: true, browser: true, webhook: null } })).status()).toBe(200);
});

test("Settings → Account: notification choices, a bad webhook URL said inline, the secret kept masked", async ({ page }, testInfo) => {
  await page.goto("/settings/account");
  const section = page.getByRole("region", { name: "Notifications" });
  await expect(section.getByRole("checkbox", { name: "E-mail" })).toBeChecked();
  // The browser tests' studio has a mail server; this person's sign-in name is no address.
  await expect(section.getByText("Your sign-in name is not an e-mail address, so no mail can reach you.")).toBeVisible();
  const own = section.getByRole("checkbox", { name: "My own webhook" });
  await whenHydrated(own);
  await own.check();

  const url = section.getByRole("textbox", { name: "Webhook URL" });
  await url.fill("hooks.example.com/studio");
  await url.press("Tab");
  await section.getByRole("combobox", { name: "Message format" }).selectOption("Slack");
  // Leaving the field says what is wrong, beside it; saving does not send it.
  await expect(section.getByText("Enter a full URL, such as https://hooks.example.com/studio.")).toBeVisible();
  await expect(url).toHaveAttribute("aria-invalid", "true");
  await section.getByRole("button", { name: "Save notifications" }).click();
  await expect(section.getByText("Give the webhook a signing secret (Generate makes one).")).toBeVisible();
  await expect(url).toBeFocused();
  await snap(page, testInfo, "account: a bad webhook URL said inline");

  // Loopback, which the studio refuses to post to (no STUDIO_NOTIFY_ALLOW_LOCAL here): nothing leaves this machine.
  await url.fill("http://127.0.0.1:9/studio-approvals");
  await section.getByRole("button", { name: "Generate" }).click();
  await expect(section.getByRole("textbox", { name: "Signing secret" })).toHaveValue(/^[0-9a-f]{64}$/);
  await section.getByRole("checkbox", { name: "E-mail" }).uncheck();
  await section.getByRole("button", { name: "Save notifications" }).click();
  await expect(section.getByRole("status")).toHaveText("Saved. The next approval that waits for you is sent this way.");
  await expect(section.getByRole("textbox", { name: "Signing secret" })).toHaveValue("");

  // Read again: the choices as saved, the secret never sent back (the field offers to keep it).
  await page.reload();
  const again = page.getByRole("region", { name: "Notifications" });
  await expect(again.getByRole("checkbox", { name: "E-mail" })).not.toBeChecked();
  await expect(again.getByRole("textbox", { name: "Webhook URL" })).toHaveValue("http://127.0.0.1:9/studio-approvals");
  await expect(again.getByRole("combobox", { name: "Message format" })).toHaveValue("slack");
  await expect(again.getByRole("textbox", { name: "Signing secret" })).toHaveAttribute("placeholder", "******** (kept)");
  await snap(page, testInfo, "account: notifications saved");
});

test("an approval that newly waits for the person shows the browser's notification, which opens its card", async ({ page, context, request }, testInfo) => {
  await context.grantPermissions(["notifications"]);
  // Chromium without a desktop shows nothing: a stand-in records each notification the page makes, and its click handler.
  await context.addInitScript(() => {
    const made: { title: string; body: string; tag: string; click: () => void }[] = [];
    (window as unknown as { madeNotifications: typeof made }).madeNotifications = made;
    class RecordedNotification {
      static permission = "granted";
      static requestPermission = () => Promise.resolve("granted");
      onclick: (() => void) | null = null;
      constructor(title: string, options: { body?: string; tag?: string } = {}) {
        made.push({ title, body: options.body ?? "", tag: options.tag ?? "", click: () => this.onclick?.() });
      }
      close() {}
    }
    Object.defineProperty(window, "Notification", { value: RecordedNotification, configurable: true });
  });
  await page.goto("/workflows");
  await whenHydrated(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: /^Inbox/ }));

  const name = uniqueName("Notify me", testInfo);
  const workflowId = await createWorkflow(request, writeWorkflow(name, `notify-${testInfo.testId.slice(0, 8)}.txt`));
  const runId = await startRun(request, workflowId, { message: "tell me" });
  const [approvalId] = await pendingApprovalIds(request, runId);

  const made = () => page.evaluate(() => (window as unknown as { madeNotifications: { title: string; body: string; tag: string }[] }).madeNotifications.map(({ title, body, tag }) => ({ title, body, tag })));
  await expect.poll(made).toContainEqual({ title: `${name}: write_file`, body: "wants to change a file and waits for your decision.", tag: `approval-${approvalId}` });
  await page.evaluate((tag) => (window as unknown as { madeNotifications: { tag: string; click: () => void }[] }).madeNotifications.find((each) => each.tag === tag)!.click(), `approval-${approvalId}`);
  await expect(page).toHaveURL(new RegExp(`/inbox\\?approval=${approvalId}$`));
  const card = page.getByRole("article").filter({ hasText: name });
  await expect(card.getByRole("heading", { name: "Write a File wants to change a file" })).toBeVisible();
  await snap(page, testInfo, "inbox: the card a browser notification opened");

  expect((await request.post(`/api/approvals/${approvalId}`, { data: { decision: "deny" } })).status()).toBe(200);
});

test("a builder sets the workflow's approval webhook in its settings, apart from the workflow's definition", async ({ page, request }, testInfo) => {
  const workflowId = await createWorkflow(request, writeWorkflow(uniqueName("Hooked", testInfo), `hooked-${testInfo.testId.slice(0, 8)}.txt`));
  await page.goto(`/workflows/${workflowId}`);
  const section = page.getByRole("region", { name: "Approval webhook" });
  const url = section.getByRole("textbox", { name: "Webhook URL" });
  await whenHydrated(url);
  await url.fill("ftp://hooks.example.com/studio");
  await section.getByRole("button", { name: "Save webhook" }).click();
  await expect(section.getByText("Use an https:// (or http://) URL, not ftp:.")).toBeVisible();
  await url.fill("http://127.0.0.1:9/workflow-approvals");
  await section.getByRole("combobox", { name: "Message format" }).selectOption("Microsoft Teams");
  await section.getByRole("button", { name: "Generate" }).click();
  await section.getByRole("button", { name: "Save webhook" }).click();
  await expect(section.getByRole("status")).toHaveText("Saved. The next approval of this workflow's runs is sent there.");
  await section.scrollIntoViewIfNeeded();
  await snap(page, testInfo, "editor: the workflow's approval webhook");
  const stored = (await (await request.get(`/api/workflows/${workflowId}/notification-webhook`)).json()) as { webhook: unknown };
  expect(stored.webhook).toMatchObject({ url: "http://127.0.0.1:9/workflow-approvals", format: "teams", secret: "********" });
  // Not part of the workflow: no version was saved for it.
  const workflow = (await (await request.get(`/api/workflows/${workflowId}`)).json()) as { workflow: { latestVersion: number } };
  expect(workflow.workflow.latestVersion).toBe(1);

  // Loopback is refused to webhooks here: the approval waits as ever, and its card says the message did not go.
  const runId = await startRun(request, workflowId, { message: "nobody hears" });
  const [approvalId] = await pendingApprovalIds(request, runId);
  await page.goto(`/inbox?approval=${approvalId}`);
  const card = page.getByRole("article").filter({ hasText: "Hooked" });
  await expect(async () => {
    await page.reload();
    await expect(card.getByTestId("approval-notifications")).toContainText("Webhook to 127.0.0.1:9 failed 1 time: refused: 127.0.0.1 leads to 127.0.0.1, this machine (loopback)", { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await expect(card.getByRole("button", { name: "Approve once" })).toBeEnabled();
  await snap(page, testInfo, "inbox: a webhook that failed, on the card");
  expect((await request.post(`/api/approvals/${approvalId}`, { data: { decision: "deny" } })).status()).toBe(200);

  await page.goto(`/workflows/${workflowId}`);
  const again = page.getByRole("region", { name: "Approval webhook" });
  await whenHydrated(again.getByRole("button", { name: "Remove webhook" }));
  await again.getByRole("button", { name: "Remove webhook" }).click();
  await expect(again.getByRole("status")).toHaveText("Removed.");
});
