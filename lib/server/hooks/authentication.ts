import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { WebhookNode } from "@/nodes/webhook/definition";

/**
 * Checks that a delivery comes from who the webhook expects: a token in a
 * header, or an HMAC-SHA256 signature over the raw body (GitHub's
 * `X-Hub-Signature-256: sha256=<hex>`) or over `{t}.{body}` with the time
 * in the header (Stripe's `t=<unix>,v1=<hex>`, refused outside the tolerance
 * window so a captured delivery cannot be replayed later). Every comparison
 * takes the same time whatever the guess.
 */

export type AuthenticationSettings = Pick<WebhookNode, "authentication" | "header" | "prefix" | "signatureStyle" | "toleranceSeconds">;

/** Why a delivery is refused, for the log and the sender; null when it may go on. Never says what was expected. */
export function refuseDelivery(
  settings: AuthenticationSettings,
  headers: Readonly<Record<string, string>>,
  rawBody: Uint8Array,
  secret: string,
  nowMs: number = Date.now(),
): string | null {
  if (settings.authentication === "none") return null;
  if (settings.authentication === "unset") return "This webhook has no authentication chosen yet.";
  const presented = headers[settings.header.toLowerCase()];
  if (presented === undefined) return `The ${settings.header} header is missing.`;

  if (settings.authentication === "header-token") {
    return sameText(presented, `${settings.prefix}${secret}`) ? null : `The ${settings.header} header does not hold the expected token.`;
  }

  if (settings.signatureStyle === "body") {
    const expected = `${settings.prefix}${hmacHex(secret, [rawBody])}`;
    return sameText(presented.trim().toLowerCase(), expected.toLowerCase()) ? null : `The ${settings.header} signature does not match the body.`;
  }

  const parts = parseTimestampedHeader(presented.slice(presented.startsWith(settings.prefix) ? settings.prefix.length : 0));
  if (parts.timestamp === null || parts.signatures.length === 0) return `The ${settings.header} header is not of the form t=<unix seconds>,v1=<signature>.`;
  if (Math.abs(nowMs / 1000 - parts.timestamp) > settings.toleranceSeconds) {
    return `The signature's time is more than ${settings.toleranceSeconds} s from now; a delivery is accepted only within that window.`;
  }
  const expected = hmacHex(secret, [new TextEncoder().encode(`${parts.timestamp}.`), rawBody]);
  // Every candidate is compared (no early exit), so the time taken does not say which one matched.
  let matched = false;
  for (const signature of parts.signatures) matched = sameText(signature.toLowerCase(), expected) || matched;
  return matched ? null : `The ${settings.header} signature does not match the body.`;
}

function hmacHex(secret: string, pieces: readonly Uint8Array[]): string {
  const hmac = createHmac("sha256", secret);
  for (const piece of pieces) hmac.update(piece);
  return hmac.digest("hex");
}

/** Constant-time text equality: both sides hashed first, so neither their lengths nor their contents leak through timing. */
function sameText(a: string, b: string): boolean {
  const digest = (text: string) => createHash("sha256").update(text, "utf8").digest();
  return timingSafeEqual(digest(a), digest(b));
}

function parseTimestampedHeader(value: string): { timestamp: number | null; signatures: string[] } {
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const part of value.split(",")) {
    const [key, ...rest] = part.trim().split("=");
    const text = rest.join("=");
    if (key === "t" && /^\d{1,12}$/.test(text)) timestamp = Number(text);
    if (key === "v1" && /^[0-9a-fA-F]{64}$/.test(text)) signatures.push(text);
  }
  return { timestamp, signatures };
}

/** What a sender computes, for tests and the inspector's example: the signature header's value. */
export function signDelivery(settings: Pick<WebhookNode, "prefix" | "signatureStyle">, secret: string, rawBody: string, nowSeconds = Math.floor(Date.now() / 1000)): string {
  const body = new TextEncoder().encode(rawBody);
  if (settings.signatureStyle === "body") return `${settings.prefix}${hmacHex(secret, [body])}`;
  return `${settings.prefix}t=${nowSeconds},v1=${hmacHex(secret, [new TextEncoder().encode(`${nowSeconds}.`), body])}`;
}
