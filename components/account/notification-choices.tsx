"use client";

import { useId, useState, useSyncExternalStore, type FormEvent } from "react";
import { EMPTY_WEBHOOK, useWebhookForm, webhookBodyOf, WebhookEditor } from "@/components/notifications/webhook-editor";
import { Button } from "@/components/ui/button";
import { ErrorNotice } from "@/components/ui/page-header";
import { api } from "@/lib/client/api";
import type { NotificationChoicesBody, NotificationChoicesView } from "@/lib/contracts/notifications";

type Permission = NotificationPermission | "unsupported";

/** The browser's answer so far; "unsupported" where there is no Notification (an embedded view, an old browser). */
function browserPermission(): Permission {
  return typeof Notification === "undefined" ? "unsupported" : Notification.permission;
}

/** Who re-reads the permission after this page asked for it (the browser sends no event of its own everywhere). */
const permissionListeners = new Set<() => void>();
function onPermissionChange(listener: () => void): () => void {
  permissionListeners.add(listener);
  return () => permissionListeners.delete(listener);
}

const PERMISSION_WORDS: Record<Permission, string> = {
  granted: "This browser shows them.",
  default: "This browser has not been asked yet: allow them below.",
  denied: "This browser blocks them; allow notifications for this site in the browser's settings.",
  unsupported: "This browser cannot show notifications.",
};

/**
 * Settings → Account: how the person is told that an approval waits for
 * them: e-mail, the browser's own notification while a studio tab is open,
 * and a webhook of their own. The sweep reads these at its next pass.
 */
export function NotificationChoices({ initial }: { initial: NotificationChoicesView }) {
  const id = useId();
  const [saved, setSaved] = useState(initial);
  const [email, setEmail] = useState(initial.email);
  const [browser, setBrowser] = useState(initial.browser);
  const [webhookOn, setWebhookOn] = useState(initial.webhook !== null);
  const [problem, setProblem] = useState<string | null>(null);
  const [status, setStatus] = useState("");
  const [saving, setSaving] = useState(false);
  // The server has no Notification: its HTML says "default", and the browser's answer follows once hydrated.
  const permission = useSyncExternalStore<Permission>(onPermissionChange, browserPermission, () => "default");

  const hasStoredSecret = saved.webhook !== null;
  const webhook = useWebhookForm(initial.webhook === null ? EMPTY_WEBHOOK : { url: initial.webhook.url, format: initial.webhook.format, secret: "" }, hasStoredSecret);

  const allow = async () => {
    await Notification.requestPermission();
    for (const listener of permissionListeners) listener();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setStatus("");
    setProblem(null);
    const wrong = webhookOn ? webhook.firstProblem() : null;
    if (wrong !== null) {
      document.getElementById(`${id}-webhook-${wrong}`)?.focus();
      return;
    }
    const body: NotificationChoicesBody = { email, browser, webhook: webhookOn ? webhookBodyOf(webhook.draft) : null };
    setSaving(true);
    try {
      const view = await api<NotificationChoicesView>("/api/me/notifications", { method: "PUT", body });
      setSaved(view);
      webhook.reset(view.webhook === null ? EMPTY_WEBHOOK : { url: view.webhook.url, format: view.webhook.format, secret: "" });
      setStatus("Saved. The next approval that waits for you is sent this way.");
    } catch (error) {
      setProblem(webhook.failed(error, "webhook."));
    } finally {
      setSaving(false);
    }
  };

  const emailHelp = !saved.mailServer
    ? "The studio has no mail server set (STUDIO_SMTP_URL), so no mail is sent yet."
    : saved.emailAddress === null
      ? "Your sign-in name is not an e-mail address, so no mail can reach you."
      : `Sent to ${saved.emailAddress}.`;

  return (
    <section aria-labelledby={`${id}-heading`} className="max-w-2xl">
      <h2 id={`${id}-heading`} className="mb-1 text-lg font-semibold">
        Notifications
      </h2>
      <p className="mb-4 text-sm text-muted">How you are told that an approval waits for you. Every message only links to the card; you decide there, signed in.</p>
      <form onSubmit={submit} noValidate className="space-y-5">
        <Choice id={`${id}-email`} label="E-mail" checked={email} onChange={setEmail} help={emailHelp} />
        <div className="space-y-2">
          <Choice id={`${id}-browser`} label="Browser notifications while the studio is open" checked={browser} onChange={setBrowser} help={PERMISSION_WORDS[permission]} />
          {browser && permission === "default" ? (
            <Button className="ml-7" onClick={() => void allow()}>
              Allow notifications in this browser
            </Button>
          ) : null}
        </div>
        <div className="space-y-3">
          <Choice id={`${id}-webhook-on`} label="My own webhook" checked={webhookOn} onChange={setWebhookOn} help="A JSON, Slack or Microsoft Teams message to an address of yours, signed with a secret." />
          {webhookOn ? (
            <div className="ml-7">
              <WebhookEditor idPrefix={`${id}-webhook`} draft={webhook.draft} errors={webhook.errors} hasStoredSecret={hasStoredSecret} onChange={webhook.change} onBlur={webhook.checkField} />
            </div>
          ) : null}
        </div>
        {problem ? <ErrorNotice title="Notifications not saved">{problem}</ErrorNotice> : null}
        <div className="flex items-center gap-3">
          <Button variant="primary" type="submit" disabled={saving}>
            {saving ? "Saving…" : "Save notifications"}
          </Button>
          <p role="status" className="text-sm text-safe">
            {status}
          </p>
        </div>
      </form>
    </section>
  );
}

function Choice({ id, label, help, checked, onChange }: { id: string; label: string; help: string; checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <div className="flex items-start gap-3">
      <input id={id} type="checkbox" className="mt-1 size-4" aria-describedby={`${id}-help`} checked={checked} onChange={(event) => onChange(event.target.checked)} />
      <div>
        <label htmlFor={id} className="text-sm font-medium">
          {label}
        </label>
        <p id={`${id}-help`} className="text-xs leading-relaxed text-muted">
          {help}
        </p>
      </div>
    </div>
  );
}
