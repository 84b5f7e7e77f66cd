"use client";

import { useCallback, useState } from "react";
import { asSentence } from "@/components/secrets/form-issues";
import { Button } from "@/components/ui/button";
import { CONTROL_CLASS, Field, fieldAria } from "@/components/ui/field";
import { ApiError, type ApiIssue } from "@/lib/client/api";
import { MIN_WEBHOOK_SECRET_LENGTH, WEBHOOK_FORMAT_TITLES, WEBHOOK_FORMATS, webhookUrlProblem, type WebhookFormat, type WebhookTargetBody } from "@/lib/contracts/notifications";

/** A webhook as its fields hold it; `secret` empty keeps the stored one. */
export interface WebhookDraft {
  url: string;
  format: WebhookFormat;
  secret: string;
}

export type WebhookErrors = Partial<Record<keyof WebhookDraft, string>>;

export const EMPTY_WEBHOOK: WebhookDraft = { url: "", format: "json", secret: "" };

/**
 * What is wrong with a draft before it is sent, by field, in the same words
 * as the API's 422 (lib/contracts/notifications.ts): a bad URL, or no secret
 * for a webhook that has none stored.
 */
export function webhookDraftErrors(draft: WebhookDraft, hasStoredSecret: boolean): WebhookErrors {
  const errors: WebhookErrors = {};
  const url = webhookUrlProblem(draft.url);
  if (url !== null) errors.url = asSentence(url);
  if (draft.secret === "" && !hasStoredSecret) errors.secret = "Give the webhook a signing secret (Generate makes one).";
  else if (draft.secret !== "" && draft.secret.length < MIN_WEBHOOK_SECRET_LENGTH) errors.secret = `Use at least ${MIN_WEBHOOK_SECRET_LENGTH} characters (Generate makes one).`;
  return errors;
}

/**
 * After a change, the errors still standing: a field that shows one is
 * checked again as it is typed in, so the message goes as soon as it is
 * fixed (and the form does not shift under a click that comes next); a
 * field without one waits until it is left.
 */
export function recheckedErrors(shown: WebhookErrors, draft: WebhookDraft, hasStoredSecret: boolean): WebhookErrors {
  const now = webhookDraftErrors(draft, hasStoredSecret);
  const kept: WebhookErrors = {};
  for (const field of Object.keys(shown) as (keyof WebhookDraft)[]) if (shown[field] !== undefined && now[field] !== undefined) kept[field] = now[field];
  return kept;
}

/** The body the API takes: the secret left out when the stored one is kept. */
export function webhookBodyOf(draft: WebhookDraft): WebhookTargetBody {
  return { url: draft.url.trim(), format: draft.format, ...(draft.secret === "" ? {} : { secret: draft.secret }) };
}

/** A 422's issues under `prefix` (`webhook.` for a person's, "" for a workflow's) on the fields they name; the rest stay. */
export function webhookApiErrors(issues: readonly ApiIssue[], prefix: string): { fields: WebhookErrors; other: ApiIssue[] } {
  const fields: WebhookErrors = {};
  const other: ApiIssue[] = [];
  for (const issue of issues) {
    const field = issue.path.startsWith(prefix) ? issue.path.slice(prefix.length) : null;
    if (field === "url" || field === "format" || field === "secret") fields[field] ??= asSentence(issue.message);
    else other.push(issue);
  }
  return { fields, other };
}

/**
 * A webhook form's state, for a person's own and for a workflow's: the draft,
 * its errors (checked when a field is left, again as a wrong one is typed
 * in, all before a save) and a failed save's 422 put on the fields.
 */
export function useWebhookForm(initial: WebhookDraft, hasStoredSecret: boolean) {
  const [draft, setDraft] = useState(initial);
  const [errors, setErrors] = useState<WebhookErrors>({});
  // Stable across renders: an effect that fills the form from the server lists it as a dependency without refilling.
  const reset = useCallback((next: WebhookDraft) => {
    setDraft(next);
    setErrors({});
  }, []);
  return {
    draft,
    errors,
    /** A saved webhook (or none): its fields, the secret empty (kept), no errors. */
    reset,
    change(next: WebhookDraft) {
      setDraft(next);
      setErrors((shown) => recheckedErrors(shown, next, hasStoredSecret));
    },
    checkField(field: keyof WebhookDraft) {
      const found = webhookDraftErrors(draft, hasStoredSecret);
      setErrors((shown) => ({ ...shown, [field]: found[field] }));
    },
    /** Before a save: every field checked; the first wrong one's id suffix, or null when it may be sent. */
    firstProblem(): keyof WebhookDraft | null {
      const found = webhookDraftErrors(draft, hasStoredSecret);
      setErrors(found);
      return found.url !== undefined ? "url" : found.secret !== undefined ? "secret" : null;
    },
    /** A failed save: a 422's issues under `prefix` on their fields; what is left to say for the form as a whole, or null. */
    failed(error: unknown, prefix: string): string | null {
      if (!(error instanceof ApiError) || error.issues.length === 0) return error instanceof Error ? error.message : String(error);
      const sorted = webhookApiErrors(error.issues, prefix);
      setErrors(sorted.fields);
      return sorted.other.length > 0 ? error.message : null;
    },
  };
}

/** 32 random bytes as hex: a signing secret nobody has to think up. */
function generatedSecret(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(32)), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

interface WebhookEditorProps {
  idPrefix: string;
  draft: WebhookDraft;
  errors: WebhookErrors;
  /** A secret is stored: the field shows it masked and may stay empty. */
  hasStoredSecret: boolean;
  onChange: (draft: WebhookDraft) => void;
  /** A field was left: check it now, as every form here does. */
  onBlur?: (field: keyof WebhookDraft) => void;
}

/** A webhook's URL, message format and signing secret, for a person's own and for a workflow's. */
export function WebhookEditor({ idPrefix, draft, errors, hasStoredSecret, onChange, onBlur }: WebhookEditorProps) {
  const format = WEBHOOK_FORMAT_TITLES[draft.format];
  const secretHelp = hasStoredSecret
    ? "Stored encrypted and shown masked; leave it empty to keep it, or type or generate a new one. The receiver checks X-Studio-Signature with it."
    : "The receiver checks each message's X-Studio-Signature with it (see the README). Copy it to the receiver before you save.";
  return (
    <div className="space-y-4">
      <Field id={`${idPrefix}-url`} label="Webhook URL" required error={errors.url} help="Where the message is posted when an approval waits. It only links to the card: nothing is decided by it.">
        <input
          {...fieldAria(`${idPrefix}-url`, { help: true, error: errors.url })}
          className={CONTROL_CLASS}
          type="url"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          placeholder="https://hooks.example.com/studio"
          value={draft.url}
          onChange={(event) => onChange({ ...draft, url: event.target.value })}
          onBlur={() => onBlur?.("url")}
        />
      </Field>
      <Field id={`${idPrefix}-format`} label="Message format" error={errors.format} help={format.explanation}>
        <select
          {...fieldAria(`${idPrefix}-format`, { help: format.explanation, error: errors.format })}
          className={CONTROL_CLASS}
          value={draft.format}
          onChange={(event) => onChange({ ...draft, format: event.target.value as WebhookFormat })}
        >
          {WEBHOOK_FORMATS.map((value) => (
            <option key={value} value={value}>
              {WEBHOOK_FORMAT_TITLES[value].label}
            </option>
          ))}
        </select>
      </Field>
      <Field id={`${idPrefix}-secret`} label="Signing secret" required={!hasStoredSecret} error={errors.secret} help={secretHelp}>
        <div className="flex flex-wrap gap-2">
          <input
            {...fieldAria(`${idPrefix}-secret`, { help: true, error: errors.secret })}
            className={`${CONTROL_CLASS} min-w-0 flex-1 basis-48 font-mono`}
            type="text"
            autoComplete="off"
            spellCheck={false}
            placeholder={hasStoredSecret ? "******** (kept)" : ""}
            value={draft.secret}
            onChange={(event) => onChange({ ...draft, secret: event.target.value })}
            onBlur={() => onBlur?.("secret")}
          />
          <Button onClick={() => onChange({ ...draft, secret: generatedSecret() })}>Generate</Button>
        </div>
      </Field>
    </div>
  );
}
