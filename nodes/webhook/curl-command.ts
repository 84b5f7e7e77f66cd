import { parseSecretReference } from "@/lib/tools/contracts";
import type { WebhookNode } from "./definition";

/** The shell variable that stands for the secret's value: the stored secret's own name, so the two agree. */
export function secretVariable(node: Pick<WebhookNode, "authentication" | "secret">): string | null {
  if (node.authentication !== "header-token" && node.authentication !== "hmac-sha256") return null;
  return parseSecretReference(node.secret) ?? (node.authentication === "header-token" ? "WEBHOOK_TOKEN" : "WEBHOOK_SECRET");
}

/**
 * A ready curl command that delivers a test request, credential and all. The
 * secret's value is never written out: the command reads it from a shell
 * variable named like the stored secret (`$HOOK_TOKEN` for `${HOOK_TOKEN}`).
 *
 * @example
 *   curlCommand({ ...node, authentication: "header-token", secret: "${HOOK_TOKEN}", header: "Authorization", prefix: "Bearer " }, url)
 *   // curl -X POST '…' \
 *   //   -H 'content-type: application/json' -d '{"hello":"world"}' \
 *   //   -H "Authorization: Bearer $HOOK_TOKEN"
 */
export function curlCommand(node: WebhookNode, url: string): string {
  const method = node.methods.includes("POST") ? "POST" : node.methods[0]!;
  const body = method === "GET" || method === "DELETE" ? null : "{\"hello\":\"world\"}";
  const variable = secretVariable(node);
  const lines = [`curl -X ${method} '${url}'`];
  if (body) lines.push(`  -H 'content-type: application/json' -d '${body}'`);
  if (node.authentication === "header-token") lines.push(`  -H "${node.header}: ${node.prefix}$${variable}"`);
  if (node.authentication === "hmac-sha256" && node.signatureStyle === "body") {
    lines.unshift(`SIGNATURE=$(printf '%s' '${body ?? ""}' | openssl dgst -sha256 -hmac "$${variable}" | sed 's/^.* //')`);
    lines.push(`  -H "${node.header}: ${node.prefix}$SIGNATURE"`);
  }
  if (node.authentication === "hmac-sha256" && node.signatureStyle === "timestamped") {
    lines.unshift(`T=$(date +%s); SIGNATURE=$(printf '%s' "$T.${(body ?? "").replace(/"/g, '\\"')}" | openssl dgst -sha256 -hmac "$${variable}" | sed 's/^.* //')`);
    lines.push(`  -H "${node.header}: ${node.prefix}t=$T,v1=$SIGNATURE"`);
  }
  if (node.idempotencyHeader) lines.push(`  -H '${node.idempotencyHeader}: delivery-1'`);
  return lines.join(" \\\n");
}
