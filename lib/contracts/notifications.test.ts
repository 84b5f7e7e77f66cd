import { describe, expect, it } from "vitest";
import { isEmailAddress, NotificationChoicesBodySchema, notificationLine, webhookUrlProblem } from "./notifications";

describe("webhook settings", () => {
  it("takes an http(s) URL without credentials in it, and says what is wrong with anything else", () => {
    expect(webhookUrlProblem("https://hooks.slack.com/services/T0/B0/x")).toBeNull();
    expect(webhookUrlProblem("")).toBe("enter the webhook's URL");
    expect(webhookUrlProblem("hooks.example.com/x")).toBe("enter a full URL, such as https://hooks.example.com/studio");
    expect(webhookUrlProblem("ftp://hooks.example.com/x")).toBe("use an https:// (or http://) URL, not ftp:");
    expect(webhookUrlProblem("https://user:pass@hooks.example.com/x")).toMatch(/^leave the user name and password out of the URL/);
  });

  it("refuses a body naming each field: webhook.url, webhook.format, webhook.secret, and anything it does not take", () => {
    const parsed = NotificationChoicesBodySchema.safeParse({ email: true, browser: false, webhook: { url: "nope", format: "discord", secret: "short" }, personId: "someone" });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues.map((issue) => issue.path.join(".")).sort()).toEqual(["", "webhook.format", "webhook.secret", "webhook.url"]);
  });

  it("mails only a sign-in name that is an address", () => {
    expect(isEmailAddress("abe@example.test")).toBe(true);
    expect(isEmailAddress("abe")).toBe(false);
    expect(isEmailAddress("abe@example.test\nBcc: x@y.z")).toBe(false);
  });
});

describe("notificationLine", () => {
  const base = { channel: "webhook", to: "the workflow", address: "hooks.example.com", round: "requested", status: "failed", attempts: 3, lastError: "500 Internal Server Error" } as const;
  it("says where it went and how it ended, as the card shows it", () => {
    expect(notificationLine(base)).toBe("Webhook to hooks.example.com failed 3 times: 500 Internal Server Error");
    expect(notificationLine({ ...base, status: "pending", attempts: 1 })).toBe("Webhook to hooks.example.com failed 1 time, trying again: 500 Internal Server Error");
    expect(notificationLine({ ...base, channel: "email", address: "abe@example.test", round: "reminder", status: "sent", lastError: null })).toBe("E-mail to abe@example.test (reminder) delivered");
  });
});
