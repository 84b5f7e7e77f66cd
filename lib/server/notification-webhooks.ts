import { createHmac } from "node:crypto";
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { fetch as undiciFetch } from "undici";
import { APPROVAL_KIND_HEADLINE, approvalWorkflowTitle, type ApprovalDetail } from "@/lib/contracts/approval";
import type { WebhookFormat } from "@/lib/contracts/notifications";
import { localRangeOf } from "@/lib/tools/net/address-ranges";
import { isAllowListed, LOCAL_RANGE_WORDS } from "@/lib/tools/net/local-range";
import { hostOf, pinnedDispatcher } from "@/lib/tools/net/outbound";
import type { ApprovalMessage, NotificationRound } from "./approval-message";

/**
 * Outgoing webhooks for waiting approvals: the message in each format, its
 * signature, and one delivery through the same outbound-address checks as the
 * HTTP tool (a host that leads to this machine, its private network, a
 * link-local address or a metadata service is refused unless allow-listed in
 * STUDIO_NOTIFY_ALLOW_LOCAL; the connection goes only to the addresses that
 * were checked; redirects are not followed).
 *
 * The signature (README, "Who approves"): `X-Studio-Timestamp` is the send
 * time in Unix seconds and `X-Studio-Signature` is `sha256=` and the hex
 * HMAC-SHA256, keyed with the webhook's signing secret, of
 * `<timestamp>.<raw body>`. A receiver recomputes it, compares in constant
 * time and refuses a timestamp more than a few minutes old, so a captured
 * message cannot be replayed later.
 */

export const SIGNATURE_HEADER = "X-Studio-Signature";
export const TIMESTAMP_HEADER = "X-Studio-Timestamp";
/** One try may take this long before it counts as failed. */
const DELIVERY_TIMEOUT_MS = 10_000;

/** `sha256=<hex>` of `<timestamp>.<body>` under `secret`. */
export function webhookSignature(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
}

/** What a webhook message is about: the approval, and the words every channel shares. */
export interface WebhookSubject {
  approval: ApprovalDetail;
  message: ApprovalMessage;
  round: NotificationRound;
}

/** The message in `format`: the studio's own JSON, a Slack incoming webhook's, or a Teams MessageCard. */
export function webhookBody(format: WebhookFormat, subject: WebhookSubject): Record<string, unknown> {
  switch (format) {
    case "json":
      return jsonBody(subject);
    case "slack":
      return slackBody(subject);
    case "teams":
      return teamsBody(subject);
  }
}

function jsonBody({ approval, message, round }: WebhookSubject): Record<string, unknown> {
  return {
    type: round === "reminder" || round === "escalated-reminder" ? "approval-reminder" : "approval-waiting",
    round,
    approval: { id: approval.id, kind: approval.kind, title: message.title, whatWillHappen: message.whatWillHappen, dueAt: message.dueAt, url: message.link },
    workflow: { id: approval.workflowId, name: approvalWorkflowTitle(approval) },
    run: { id: approval.runId },
    step: { id: approval.nodeId, label: approval.nodeLabel, action: APPROVAL_KIND_HEADLINE[approval.kind] },
    reason: message.reason,
  };
}

/** Slack shows `text` in notifications and `blocks` in the channel; mrkdwn in a code block shows the preview as it is. */
function slackBody({ message }: WebhookSubject): Record<string, unknown> {
  const due = message.dueAt === null ? [] : [{ type: "context", elements: [{ type: "mrkdwn", text: `Deadline: ${message.dueAt} (UTC)` }] }];
  return {
    text: `${message.title}: ${message.link}`,
    blocks: [
      { type: "header", text: { type: "plain_text", text: message.title.slice(0, 150), emoji: false } },
      { type: "section", text: { type: "mrkdwn", text: slackEscape(message.reason) } },
      { type: "section", text: { type: "mrkdwn", text: `\`\`\`${slackEscape(message.whatWillHappen).replace(/```/g, "ʼʼʼ").slice(0, 2_900)}\`\`\`` } },
      ...due,
      { type: "actions", elements: [{ type: "button", text: { type: "plain_text", text: "Open the approval" }, url: message.link }] },
    ],
  };
}

/** Slack's three control characters in mrkdwn. */
function slackEscape(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** A Microsoft Teams MessageCard: what its incoming webhooks (connectors and Workflows) take. */
function teamsBody({ approval, message }: WebhookSubject): Record<string, unknown> {
  return {
    "@type": "MessageCard",
    "@context": "https://schema.org/extensions",
    summary: message.title,
    themeColor: "D97706",
    title: message.title,
    sections: [
      {
        activityTitle: approvalWorkflowTitle(approval),
        activitySubtitle: message.reason,
        facts: [
          { name: "Step", value: approval.nodeLabel },
          { name: "Kind", value: approval.kind },
          ...(message.dueAt === null ? [] : [{ name: "Deadline (UTC)", value: message.dueAt }]),
        ],
        // Teams renders markdown: the preview goes in a code block, so nothing in it is formatting.
        text: `\`\`\`\n${message.whatWillHappen.replace(/```/g, "ʼʼʼ")}\n\`\`\``,
      },
    ],
    potentialAction: [{ "@type": "OpenUri", name: "Open the approval", targets: [{ os: "default", uri: message.link }] }],
  };
}

/** A delivery that did not arrive; `permanent` when trying again cannot help (a refused address). */
export class WebhookDeliveryError extends Error {
  readonly permanent: boolean;
  constructor(message: string, permanent = false) {
    super(message);
    this.name = "WebhookDeliveryError";
    this.permanent = permanent;
  }
}

export interface DeliveryOptions {
  /** Hosts (host, address, host:port) on this machine or its network that may be sent to: STUDIO_NOTIFY_ALLOW_LOCAL. */
  allowLocal: readonly string[];
  /** For tests: how a host name becomes addresses. */
  resolveHost?: (host: string) => Promise<string[]>;
}

const systemResolver = async (host: string): Promise<string[]> => (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

/**
 * Posts `body`, signed with `secret`, to `url`. Resolves when the receiver
 * answered 2xx; throws WebhookDeliveryError otherwise.
 */
export async function deliverWebhook(target: { url: string; secret: string }, body: Record<string, unknown>, options: DeliveryOptions): Promise<void> {
  const url = new URL(target.url);
  const host = hostOf(url);
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : await (options.resolveHost ?? systemResolver)(host);
  } catch (error) {
    throw new WebhookDeliveryError(`could not find the address of ${host} (${(error as NodeJS.ErrnoException).code ?? "unknown"})`);
  }
  if (addresses.length === 0) throw new WebhookDeliveryError(`could not find the address of ${host}`);
  for (const address of addresses) {
    const range = localRangeOf(address);
    if (range !== null && !isAllowListed(url, host, address, options.allowLocal)) {
      throw new WebhookDeliveryError(`refused: ${host} leads to ${address}, ${LOCAL_RANGE_WORDS[range]}; webhooks go to public addresses only (STUDIO_NOTIFY_ALLOW_LOCAL lists exceptions)`, true);
    }
  }
  const raw = JSON.stringify(body);
  const timestamp = String(Math.floor(Date.now() / 1000));
  const dispatcher = pinnedDispatcher(addresses);
  try {
    const response = await undiciFetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", "user-agent": "Neurosurfer-Studio-Webhook", [TIMESTAMP_HEADER]: timestamp, [SIGNATURE_HEADER]: webhookSignature(target.secret, timestamp, raw) },
      body: raw,
      redirect: "manual",
      dispatcher,
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    });
    await response.body?.cancel();
    if (response.status < 200 || response.status > 299) throw new WebhookDeliveryError(`${response.status}${response.statusText ? ` ${response.statusText}` : ""}`);
  } catch (error) {
    if (error instanceof WebhookDeliveryError) throw error;
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    const timedOut = (error as Error).name === "TimeoutError";
    throw new WebhookDeliveryError(timedOut ? `no answer within ${DELIVERY_TIMEOUT_MS / 1000} s` : `could not connect to ${host}${cause ? ` (${cause})` : ""}`);
  } finally {
    void dispatcher.close().catch(() => undefined);
  }
}
