import { describe, expect, it } from "vitest";
import { curlCommand, secretVariable } from "./curl-command";
import { WebhookNodeSchema, type WebhookNode } from "./definition";

function webhook(settings: Partial<WebhookNode>): WebhookNode {
  return WebhookNodeSchema.parse({ id: "hook", kind: "webhook", position: { x: 0, y: 0 }, hookId: "a".repeat(32), ...settings });
}

describe("curlCommand", () => {
  it("reads the token from a shell variable named like the stored secret", () => {
    const node = webhook({ authentication: "header-token", secret: "${HOOK_TOKEN}", header: "Authorization", prefix: "Bearer " });
    expect(secretVariable(node)).toBe("HOOK_TOKEN");
    expect(curlCommand(node, "http://127.0.0.1:3000/hooks/x")).toBe(
      [`curl -X POST 'http://127.0.0.1:3000/hooks/x'`, `  -H 'content-type: application/json' -d '{"hello":"world"}'`, `  -H "Authorization: Bearer $HOOK_TOKEN"`].join(" \\\n"),
    );
  });

  it("signs with the stored secret's variable, and names a stand-in while none is picked", () => {
    const signed = curlCommand(webhook({ authentication: "hmac-sha256", secret: "${GITHUB_HOOK_SECRET}", header: "X-Hub-Signature-256", prefix: "sha256=" }), "u");
    expect(signed).toContain('-hmac "$GITHUB_HOOK_SECRET"');
    expect(secretVariable(webhook({ authentication: "header-token" }))).toBe("WEBHOOK_TOKEN");
    expect(secretVariable(webhook({ authentication: "none" }))).toBeNull();
  });
});
