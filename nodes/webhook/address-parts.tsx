"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { CONTROL_CLASS } from "@/components/ui/field";
import { curlCommand, secretVariable } from "./curl-command";
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

/** The curl command that delivers a test request (curl-command.ts), with how to give it the secret's value. */
export function CurlExample({ node, url, what = "the curl command" }: { node: WebhookNode; url: string; what?: string }) {
  const command = curlCommand(node, url);
  const variable = secretVariable(node);
  return (
    <div className="space-y-1">
      <div className="flex items-center justify-between">
        <span className="text-xs font-medium text-muted">Try it with curl</span>
        <CopyButton text={command} label={`Copy ${what}`} />
      </div>
      <pre className={`${CONTROL_CLASS} h-auto overflow-x-auto whitespace-pre py-2 font-mono text-[11px] leading-relaxed`} data-testid="webhook-curl">
        {command}
      </pre>
      {variable ? (
        <p className="text-xs text-muted">
          Set <code className="font-mono">{variable}</code> in your shell to the secret&apos;s value first (<code className="font-mono">export {variable}=…</code>).
        </p>
      ) : null}
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
