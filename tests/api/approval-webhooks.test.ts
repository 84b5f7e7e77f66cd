import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor, type ApiClient, type Json } from "./api-client";
import { chain, removeWorkFolders, shellNode, workFolder } from "./fixtures";
import { setupStudioServer } from "./studio-server";

/**
 * Outgoing webhooks for waiting approvals (issue 30): a workflow's webhook
 * and a person's own get one message per approval, signed (HMAC-SHA256 of
 * the timestamp and the raw body); a receiver that fails is tried again with
 * backoff and gets it once; one that cannot be reached leaves the approval
 * waiting and the failure on its card and in the security log; Slack and
 * Teams get their own shapes; a bad URL or a missing secret is a 422 naming
 * the field. Every receiver here is on loopback (STUDIO_NOTIFY_ALLOW_LOCAL).
 */

interface Delivery {
  path: string;
  verified: boolean;
  fresh: boolean;
  body: Json;
}

/** A webhook receiver on loopback that checks each message's signature and timestamp, as the README's receiver does. */
async function startReceiver(secret: string) {
  const received: Delivery[] = [];
  /** Per path, the statuses to answer in turn; then 200. */
  const answers = new Map<string, number[]>();
  const verify = (request: IncomingMessage, raw: string) => {
    const timestamp = String(request.headers["x-studio-timestamp"] ?? "");
    const expected = Buffer.from(`sha256=${createHmac("sha256", secret).update(`${timestamp}.${raw}`).digest("hex")}`);
    const given = Buffer.from(String(request.headers["x-studio-signature"] ?? ""));
    return { verified: given.length === expected.length && timingSafeEqual(given, expected), fresh: Math.abs(Date.now() / 1000 - Number(timestamp)) <= 300 };
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      const path = request.url ?? "/";
      const status = answers.get(path)?.shift() ?? 200;
      if (status === 200) received.push({ path, ...verify(request, raw), body: JSON.parse(raw) as Json });
      response.writeHead(status, { "content-type": "text/plain" }).end(status === 200 ? "ok" : "not now");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return { url: (path: string) => `http://127.0.0.1:${port}${path}`, received, answers, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const SECRET = "receiver-signing-secret-7f3a";
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let folder: string;

describe("approval webhooks", () => {
  beforeAll(async () => {
    receiver = await startReceiver(SECRET);
    folder = workFolder("studio-webhooks-");
  });
  const server = setupStudioServer(() => ({ env: { STUDIO_NOTIFY_CHECK_MS: "200", STUDIO_NOTIFY_ALLOW_LOCAL: "127.0.0.1" } }));
  let owner: ApiClient;
  beforeAll(() => {
    owner = server.client();
  });
  afterAll(async () => {
    await receiver.close();
    removeWorkFolders();
  });

  /** A workflow of one shell step that waits for approval, with `webhook` as its approval webhook; started. */
  async function gatedRun(name: string, command: string, webhook: Json | null): Promise<{ workflowId: string; runId: string; approval: Json }> {
    const workflow = { name, nodes: [{ id: "in", kind: "input" }, { ...shellNode("shell", folder, command), label: "Clean up" }, { id: "out", kind: "output", value: "x" }], edges: chain("in", "shell", "out") };
    const workflowId = (await owner.expect(201, "POST", "/api/workflows", workflow)).workflow.id as string;
    if (webhook !== null) await owner.expect(200, "PUT", `/api/workflows/${workflowId}/notification-webhook`, webhook);
    const runId = (await owner.expect(201, "POST", `/api/workflows/${workflowId}/runs`, { inputs: {} })).run.id as string;
    return { workflowId, runId, approval: await owner.waitForApproval(runId) };
  }

  const deliveriesTo = (path: string) => receiver.received.filter((delivery) => delivery.path === path);
  const log = async (action: string, approvalId: string): Promise<Json[]> =>
    ((await owner.expect(200, "GET", `/api/audit?action=${action}`)).entries as Json[]).filter((entry) => entry.detail.approval === approvalId).reverse();

  it("sends the workflow's webhook one signed JSON message with a link that opens the card, and shows it delivered", async () => {
    const { workflowId, runId, approval } = await gatedRun("Signed", "echo signed-message", { url: receiver.url("/signed"), format: "json", secret: SECRET });
    const [delivery] = await waitFor(() => (deliveriesTo("/signed").length > 0 ? deliveriesTo("/signed") : undefined), { what: "the webhook's message", timeoutMs: 30_000 });
    expect(delivery).toMatchObject({ verified: true, fresh: true });
    expect(delivery!.body).toEqual({
      type: "approval-waiting",
      round: "requested",
      approval: { id: approval.id, kind: "shell", title: "Signed: Clean up wants to run a command", whatWillHappen: expect.stringContaining("echo signed-message"), dueAt: null, url: `${server.url}/inbox?approval=${approval.id}` },
      workflow: { id: workflowId, name: "Signed" },
      run: { id: runId },
      step: { id: "shell", label: "Clean up", action: "wants to run a command" },
      reason: "It waits for a decision.",
    });
    const shown = await waitFor(async () => {
      const { approval: seen } = await owner.expect(200, "GET", `/api/approvals/${approval.id}`);
      return seen.notifications.some((each: Json) => each.status === "sent") ? seen.notifications : undefined;
    }, { what: "the delivery on the card" });
    expect(shown).toEqual([{ channel: "webhook", to: "the workflow", address: new URL(receiver.url("/")).host, round: "requested", status: "sent", attempts: 1, lastError: null }]);
    expect(await log("approval-notified", approval.id as string)).toEqual([expect.objectContaining({ target: workflowId, detail: expect.objectContaining({ channel: "webhook", to: new URL(receiver.url("/")).host, person: null }) })]);
    // The webhook is shown with its secret masked, never the secret.
    const { webhook } = await owner.expect(200, "GET", `/api/workflows/${workflowId}/notification-webhook`);
    expect(webhook).toMatchObject({ url: receiver.url("/signed"), format: "json", secret: "********" });
    expect(JSON.stringify(await owner.expect(200, "GET", "/api/audit"))).not.toContain(SECRET);
    await owner.expect(200, "POST", `/api/approvals/${approval.id}`, { decision: "approve", digest: approval.digest });
    expect((await owner.waitForRun(runId)).status).toBe("succeeded");
    expect(deliveriesTo("/signed")).toHaveLength(1);
  });

  it("tries a receiver that answers 500 twice again, with backoff, and delivers once; each failure is in the security log", async () => {
    receiver.answers.set("/flaky", [500, 500]);
    const { approval } = await gatedRun("Flaky", "echo flaky", { url: receiver.url("/flaky"), format: "json", secret: SECRET });
    await waitFor(() => (deliveriesTo("/flaky").length > 0 ? true : undefined), { what: "the message after two refusals", timeoutMs: 30_000 });
    const failures = await waitFor(async () => {
      const entries = await log("approval-notification-failed", approval.id as string);
      return entries.length >= 2 ? entries : undefined;
    }, { what: "both failures in the log" });
    expect(failures.map((entry) => [entry.detail.attempt, entry.detail.error, entry.detail.willRetry])).toEqual([
      [1, "500 Internal Server Error", true],
      [2, "500 Internal Server Error", true],
    ]);
    const { approval: seen } = await owner.expect(200, "GET", `/api/approvals/${approval.id}`);
    expect(seen.notifications).toEqual([expect.objectContaining({ status: "sent", attempts: 3 })]);
    // A few passes later: still one.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(deliveriesTo("/flaky")).toHaveLength(1);
    expect(deliveriesTo("/flaky")[0]!.verified).toBe(true);
  });

  it("leaves the approval waiting when the target cannot be reached, and shows the failure on the card and in the log", async () => {
    // A port nobody listens on: a listener opened and closed at once.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const { runId, approval } = await gatedRun("Unreachable", "echo unreachable", { url: `http://127.0.0.1:${port}/hook`, format: "json", secret: SECRET });
    const notifications = await waitFor(async () => {
      const { approval: seen } = await owner.expect(200, "GET", `/api/approvals/${approval.id}`);
      return seen.notifications[0]?.attempts >= 2 ? seen.notifications : undefined;
    }, { what: "two failed tries on the card", timeoutMs: 30_000 });
    expect(notifications[0]).toMatchObject({ channel: "webhook", address: `127.0.0.1:${port}`, lastError: expect.stringContaining(`could not connect to 127.0.0.1`) });
    expect((await owner.expect(200, "GET", `/api/runs/${runId}`)).run.status).toBe("awaiting_input");
    expect((await owner.expect(200, "GET", `/api/approvals/${approval.id}`)).approval.status).toBe("pending");
    expect((await log("approval-notification-failed", approval.id as string))[0]).toMatchObject({ detail: { channel: "webhook", willRetry: true, error: expect.stringContaining("could not connect") } });
    await owner.expect(200, "POST", `/api/approvals/${approval.id}`, { decision: "deny", digest: approval.digest });
  });

  it("sends a person's own webhook as Slack, and a workflow's as Teams, in their shapes", async () => {
    await owner.expect(200, "PUT", "/api/me/notifications", { email: true, browser: true, webhook: { url: receiver.url("/slack"), format: "slack", secret: SECRET } });
    const { approval } = await gatedRun("Chat", "echo chat", { url: receiver.url("/teams"), format: "teams", secret: SECRET });
    const link = `${server.url}/inbox?approval=${approval.id}`;
    const [slack] = await waitFor(() => (deliveriesTo("/slack").length > 0 ? deliveriesTo("/slack") : undefined), { what: "the Slack message", timeoutMs: 30_000 });
    expect(slack!.body.text).toBe(`Chat: Clean up wants to run a command: ${link}`);
    expect(slack!.body.blocks.map((block: Json) => block.type)).toEqual(["header", "section", "section", "actions"]);
    expect(slack!.body.blocks[2].text).toEqual({ type: "mrkdwn", text: expect.stringMatching(/^```\$ echo chat\n\(in .*\)```$/) });
    expect(slack!.body.blocks[3].elements[0]).toEqual({ type: "button", text: { type: "plain_text", text: "Open the approval" }, url: link });
    const [teams] = await waitFor(() => (deliveriesTo("/teams").length > 0 ? deliveriesTo("/teams") : undefined), { what: "the Teams message" });
    expect(teams!.body).toMatchObject({ "@type": "MessageCard", "@context": "https://schema.org/extensions", title: "Chat: Clean up wants to run a command", potentialAction: [{ "@type": "OpenUri", targets: [{ os: "default", uri: link }] }] });
    await owner.expect(200, "POST", `/api/approvals/${approval.id}`, { decision: "deny", digest: approval.digest });
    await owner.expect(200, "PUT", "/api/me/notifications", { email: true, browser: true, webhook: null });
  });

  it("refuses a bad URL, a missing secret or an unknown format with a 422 naming the field, and changes nothing", async () => {
    // No webhook of their own yet: a first one needs a secret.
    const before = await owner.expect(200, "PUT", "/api/me/notifications", { email: true, browser: true, webhook: null });
    const badUrl = await owner.expect(422, "PUT", "/api/me/notifications", { email: false, browser: true, webhook: { url: "hooks.example.com/x", format: "json", secret: SECRET } });
    expect(badUrl.issues).toEqual([expect.objectContaining({ path: "webhook.url", message: expect.stringContaining("full URL") })]);
    const noSecret = await owner.expect(422, "PUT", "/api/me/notifications", { email: false, browser: true, webhook: { url: "https://hooks.example.com/x", format: "json" } });
    expect(noSecret.issues).toEqual([expect.objectContaining({ path: "webhook.secret" })]);
    const badFormat = await owner.expect(422, "PUT", "/api/me/notifications", { email: false, browser: true, webhook: { url: "ftp://hooks.example.com/x", format: "discord", secret: "short" } });
    expect(badFormat.issues.map((issue: Json) => issue.path).sort()).toEqual(["webhook.format", "webhook.secret", "webhook.url"]);
    expect(await owner.expect(200, "GET", "/api/me/notifications")).toEqual(before);
  });
});
