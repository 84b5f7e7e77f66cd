import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { approvalMessage, type NotificationRound } from "./approval-message";
import { sampleApproval } from "./testing/approval-detail";
import { deliverWebhook, SIGNATURE_HEADER, TIMESTAMP_HEADER, webhookBody, WebhookDeliveryError } from "./notification-webhooks";

// A right-to-left override hides what follows it from a reader: every message marks it.
const approval = sampleApproval({ arguments: { command: "echo hi" }, preview: "echo hi \u202E# rm -rf /", policy: { approvers: [], required: 1, deadline: { minutes: 30, then: "deny" } }, startedById: null });

const subject = (round: NotificationRound = "requested") => ({ approval, message: approvalMessage(approval, "https://studio.example.test", round), round });

describe("webhook bodies", () => {
  it("JSON: the approval, its workflow and step, what will happen with hidden characters marked, the deadline and a link that only opens the card", () => {
    const body = webhookBody("json", subject());
    expect(body).toEqual({
      type: "approval-waiting",
      round: "requested",
      approval: {
        id: "appr_1",
        kind: "shell",
        title: "Deploy: Clean up wants to run a command",
        whatWillHappen: "echo hi ⟨U+202E⟩# rm -rf /",
        dueAt: "2026-12-04T10:30:00.000Z",
        url: "https://studio.example.test/inbox?approval=appr_1",
      },
      workflow: { id: "wf_1", name: "Deploy" },
      run: { id: "run_1" },
      step: { id: "shell", label: "Clean up", action: "wants to run a command" },
      reason: "It waits for a decision.",
    });
    expect(JSON.stringify(body)).not.toContain("\u202E");
    expect(webhookBody("json", subject("reminder"))).toMatchObject({ type: "approval-reminder", approval: { title: "Reminder: Deploy: Clean up wants to run a command" } });
  });

  it("Slack: an incoming webhook's message, text and blocks, the preview in a code block and a button to the card", () => {
    const body = webhookBody("slack", subject()) as { text: string; blocks: { type: string; text?: { type: string; text: string }; elements?: unknown[] }[] };
    expect(body.text).toBe("Deploy: Clean up wants to run a command: https://studio.example.test/inbox?approval=appr_1");
    expect(body.blocks.map((block) => block.type)).toEqual(["header", "section", "section", "context", "actions"]);
    expect(body.blocks[0]!.text).toEqual({ type: "plain_text", text: "Deploy: Clean up wants to run a command", emoji: false });
    expect(body.blocks[2]!.text).toEqual({ type: "mrkdwn", text: "```echo hi ⟨U+202E⟩# rm -rf /```" });
    expect(body.blocks[4]!.elements).toEqual([{ type: "button", text: { type: "plain_text", text: "Open the approval" }, url: "https://studio.example.test/inbox?approval=appr_1" }]);
    for (const block of body.blocks) if (block.text) expect(block.text.text.length).toBeLessThanOrEqual(3_000);
  });

  it("Teams: a MessageCard with the title, facts, the preview and an OpenUri action to the card", () => {
    const body = webhookBody("teams", subject());
    expect(body).toMatchObject({
      "@type": "MessageCard",
      "@context": "https://schema.org/extensions",
      summary: "Deploy: Clean up wants to run a command",
      title: "Deploy: Clean up wants to run a command",
      sections: [{ facts: expect.arrayContaining([{ name: "Step", value: "Clean up" }, { name: "Deadline (UTC)", value: "2026-12-04T10:30:00.000Z" }]), text: "```\necho hi ⟨U+202E⟩# rm -rf /\n```" }],
      potentialAction: [{ "@type": "OpenUri", name: "Open the approval", targets: [{ os: "default", uri: "https://studio.example.test/inbox?approval=appr_1" }] }],
    });
  });
});

/** A receiver on loopback that checks the signature and the timestamp as the README tells receivers to. */
function verify(request: IncomingMessage, raw: string, secret: string): boolean {
  const timestamp = String(request.headers[TIMESTAMP_HEADER.toLowerCase()] ?? "");
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const expected = Buffer.from(`sha256=${createHmac("sha256", secret).update(`${timestamp}.${raw}`).digest("hex")}`);
  const given = Buffer.from(String(request.headers[SIGNATURE_HEADER.toLowerCase()] ?? ""));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

describe("deliverWebhook", () => {
  const received: { verified: boolean; body: unknown }[] = [];
  const answers: number[] = [];
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        received.push({ verified: verify(request, raw, "receiver-secret-0123456789"), body: JSON.parse(raw) });
        response.writeHead(answers.shift() ?? 204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("signs the timestamp and the raw body; a receiver with the secret verifies it, one with another does not", async () => {
    const body = webhookBody("json", subject());
    await deliverWebhook({ url: `http://127.0.0.1:${port}/hook`, secret: "receiver-secret-0123456789" }, body, { allowLocal: ["127.0.0.1"] });
    await deliverWebhook({ url: `http://127.0.0.1:${port}/hook`, secret: "another-secret-0123456789" }, body, { allowLocal: ["127.0.0.1"] });
    expect(received.splice(0)).toEqual([
      { verified: true, body },
      { verified: false, body },
    ]);
  });

  it("throws on a non-2xx answer, to be tried again", async () => {
    answers.push(500);
    const failure = await deliverWebhook({ url: `http://127.0.0.1:${port}/hook`, secret: "receiver-secret-0123456789" }, {}, { allowLocal: ["127.0.0.1"] }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(WebhookDeliveryError);
    expect((failure as WebhookDeliveryError).message).toMatch(/^500/);
    expect((failure as WebhookDeliveryError).permanent).toBe(false);
    received.splice(0);
  });

  it("refuses, for good and before connecting, a host that leads to this machine unless allow-listed, as the HTTP tool does", async () => {
    const resolveHost = async () => ["127.0.0.1"];
    const failure = await deliverWebhook({ url: `http://looks-public.test:${port}/hook`, secret: "receiver-secret-0123456789" }, {}, { allowLocal: [], resolveHost }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ permanent: true, message: expect.stringContaining("looks-public.test leads to 127.0.0.1, this machine (loopback)") });
    const metadata = await deliverWebhook({ url: "http://169.254.169.254/latest", secret: "receiver-secret-0123456789" }, {}, { allowLocal: ["127.0.0.1"] }).catch((error: unknown) => error);
    expect(metadata).toMatchObject({ permanent: true });
    expect(received).toEqual([]);
    // Allow-listed by name and port: delivered to the address that was checked.
    await deliverWebhook({ url: `http://pinned.test:${port}/hook`, secret: "receiver-secret-0123456789" }, { ok: 1 }, { allowLocal: [`pinned.test:${port}`], resolveHost });
    expect(received.splice(0)).toEqual([{ verified: true, body: { ok: 1 } }]);
  });
});
