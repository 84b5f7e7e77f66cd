"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { CONTROL_CLASS } from "@/components/ui/field";
import type { WebhookNode } from "./definition";

// The webhook panel's address pieces, for the live address and the test address alike.

export function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <Button
      size="sm"
      aria-label={label}
      onClick={() =>
        void navigator.clipboard?.writeText(text).then(() => {
          setCopied(true);
          setTimeout(() => setCopied(false), 1500);
        })
      }
    >
      <span aria-live="polite">{copied ? "Copied" : "Copy"}</span>
    </Button>
  );
}

/** A ready command that delivers a test request, credential and all (the secret's value as a shell variable, never written here). */
export function CurlExample({ node, url, what = "the curl command" }: { node: WebhookNode; url: string; what?: string }) {
  const method = node.methods.includes("POST") ? "POST" : node.methods[0]!;
  const body = method === "GET" || method === "DELETE" ? null : "{\"hello\":\"world\"}";
  const lines = [`curl -X ${method} '${url}'`];
  if (body) lines.push(`  -H 'content-type: application/json' -d '${body}'`);
  if (node.authentication === "header-token") lines.push(`  -H "${node.header}: ${node.prefix}$WEBHOOK_TOKEN"`);
  if (node.authentication === "hmac-sha256" && node.signatureStyle === "body") {
    lines.unshift(`SIGNATURE=$(printf '%s' '${body ?? ""}' | openssl dgst -sha256 -hmac "$WEBHOOK_SECRET" | sed 's/^.* //')`);
    lines.push(`  -H "${node.header}: ${node.prefix}$SIGNATURE"`);
  }
  if (node.authentication === "hmac-sha256" && node.signatureStyle === "timestamped") {
    lines.unshift(`T=$(date +%s); SIGNATURE=$(printf '%s' "$T.${(body ?? "").replace(/"/g, '\\"')}" | openssl dgst -sha256 -hmac "$WEBHOOK_SECRET" | sed 's/^.* //')`);
    lines.push(`  -H "${node.header}: ${node.prefix}t=$T,v1=$SIGNATURE"`);
  }
  if (node.idempotencyHeader) lines.push(`  -H '${node.idempotencyHeader}: delivery-1'`);
  const command = lines.join(" \\\n");
  return (
    <div className="space-y-1">
      <div className="flex items-center justify-between">
        <span className="text-xs font-medium text-muted">Try it with curl</span>
        <CopyButton text={command} label={`Copy ${what}`} />
      </div>
      <pre className={`${CONTROL_CLASS} h-auto overflow-x-auto whitespace-pre py-2 font-mono text-[11px] leading-relaxed`} data-testid="webhook-curl">
        {command}
      </pre>
    </div>
  );
}

/** An address, shown whole on hover, with its copy button. */
export function AddressLine({ url, copyLabel, testId }: { url: string; copyLabel: string; testId: string }) {
  return (
    <div className="flex items-center gap-2">
      <code className="min-w-0 flex-1 truncate rounded-md border border-line bg-surface-sunken px-2 py-1.5 text-xs" title={url} data-testid={testId}>
        {url}
      </code>
      <CopyButton text={url} label={copyLabel} />
    </div>
  );
}
