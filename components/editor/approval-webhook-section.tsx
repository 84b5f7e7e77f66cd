"use client";

import { useEffect, useId, useState } from "react";
import { EMPTY_WEBHOOK, useWebhookForm, webhookBodyOf, WebhookEditor, type WebhookDraft } from "@/components/notifications/webhook-editor";
import { Button } from "@/components/ui/button";
import { api } from "@/lib/client/api";
import type { WorkflowWebhookView } from "@/lib/contracts/notifications";
import { useEditorReadOnly } from "./read-only-context";

/**
 * The workflow's approval webhook, in its settings: told of every approval its
 * runs wait on, whoever decides them. Saved on its own (its secret never
 * enters the workflow's definition, its versions or an export), at once.
 */
export function ApprovalWebhookSection({ workflowId }: { workflowId: string }) {
  const id = useId();
  const readOnly = useEditorReadOnly();
  const [stored, setStored] = useState<WorkflowWebhookView["webhook"] | undefined>(undefined);
  const [status, setStatus] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const webhook = useWebhookForm(EMPTY_WEBHOOK, stored !== null && stored !== undefined);
  const { reset } = webhook;

  useEffect(() => {
    // Only those who build the workflow read it: its URL may hold the receiver's token.
    if (readOnly) return;
    let current = true;
    api<WorkflowWebhookView>(`/api/workflows/${encodeURIComponent(workflowId)}/notification-webhook`)
      .then((view) => {
        if (!current) return;
        setStored(view.webhook);
        reset(draftOf(view));
      })
      .catch((error: unknown) => current && setProblem(error instanceof Error ? error.message : String(error)));
    return () => {
      current = false;
    };
  }, [workflowId, readOnly, reset]);

  if (readOnly) return null;
  const path = `/api/workflows/${encodeURIComponent(workflowId)}/notification-webhook`;
  const hasStoredSecret = stored !== null && stored !== undefined;

  const send = async (method: "PUT" | "DELETE") => {
    setStatus("");
    setProblem(null);
    if (method === "PUT" && webhook.firstProblem() !== null) return;
    setBusy(true);
    try {
      const view = await api<WorkflowWebhookView>(path, method === "PUT" ? { method, body: webhookBodyOf(webhook.draft) } : { method });
      setStored(view.webhook);
      webhook.reset(draftOf(view));
      setStatus(view.webhook === null ? "Removed." : "Saved. The next approval of this workflow's runs is sent there.");
    } catch (error) {
      setProblem(webhook.failed(error, ""));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby={`${id}-title`} className="space-y-3 border-t border-line pt-5">
      <div>
        <h3 id={`${id}-title`} className="text-xs font-semibold uppercase tracking-wide text-muted">
          Approval webhook
        </h3>
        <p className="mt-1 text-xs leading-relaxed text-muted">A message to this address whenever a run of this workflow waits for approval, besides each approver&apos;s own e-mail or webhook. Saved at once, apart from the workflow.</p>
      </div>
      {stored === undefined && problem === null ? <p className="text-xs text-muted">Loading…</p> : null}
      {stored !== undefined ? (
        <>
          <WebhookEditor idPrefix={`${id}-webhook`} draft={webhook.draft} errors={webhook.errors} hasStoredSecret={hasStoredSecret} onChange={webhook.change} onBlur={webhook.checkField} />
          <div className="flex flex-wrap items-center gap-2">
            <Button variant="primary" disabled={busy} onClick={() => void send("PUT")}>
              Save webhook
            </Button>
            {hasStoredSecret ? (
              <Button disabled={busy} onClick={() => void send("DELETE")}>
                Remove webhook
              </Button>
            ) : null}
          </div>
        </>
      ) : null}
      {problem ? (
        <p role="alert" className="text-xs font-medium text-caution">
          {problem}
        </p>
      ) : null}
      <p role="status" className="text-xs text-safe">
        {status}
      </p>
    </section>
  );
}

function draftOf({ webhook }: WorkflowWebhookView): WebhookDraft {
  return webhook === null ? EMPTY_WEBHOOK : { url: webhook.url, format: webhook.format, secret: "" };
}
