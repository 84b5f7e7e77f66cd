"use client";

import { useEffect, useState, type FormEvent } from "react";
import { SchemaForm } from "@/components/schema-form";
import { Button } from "@/components/ui/button";
import { CONTROL_CLASS, Field, fieldAria } from "@/components/ui/field";
import { api, ApiError } from "@/lib/client/api";
import type { ApprovalEditForm, ApprovalKind } from "@/lib/contracts/approval";
import type { JsonSchema } from "@/lib/schema-form/field-descriptors";

/** The body of an approval with an edit: the arguments to run instead, or the plan to carry out. */
export type ApprovalEdit = { arguments: Record<string, unknown> } | { plan: string };

interface ApprovalEditProps {
  approvalId: string;
  kind: ApprovalKind;
  /** The call's arguments as proposed (secrets masked), or for a plan its text. */
  proposed: Record<string, unknown>;
  plan: string;
  idPrefix: string;
  busy: boolean;
  /** The server's 422 issues of the last attempt, by field (`command`, `plan`). */
  problems: Record<string, string>;
  /** Sends the approval with the edit; the card handles its answer. */
  onApprove: (edit: ApprovalEdit) => void;
  onCancel: () => void;
}

/**
 * "Edit and approve": the call's arguments in a form generated from its
 * tool's input schema (from GET /api/approvals/{id}), prefilled with what
 * was proposed, or a plan's text. The operation and secret inputs are kept
 * as they are, never shown for editing; the server checks the edit as it
 * checks a model's call and names each field it refuses.
 */
export function ApprovalEditor({ approvalId, kind, proposed, plan, idPrefix, busy, problems, onApprove, onCancel }: ApprovalEditProps) {
  if (kind === "plan") return <PlanEditor plan={plan} idPrefix={idPrefix} busy={busy} problem={problems.plan} onApprove={onApprove} onCancel={onCancel} />;
  return <ArgumentsEditor approvalId={approvalId} proposed={proposed} idPrefix={idPrefix} busy={busy} problems={problems} onApprove={onApprove} onCancel={onCancel} />;
}

function ArgumentsEditor({ approvalId, proposed, idPrefix, busy, problems, onApprove, onCancel }: Omit<ApprovalEditProps, "kind" | "plan">) {
  const [form, setForm] = useState<ApprovalEditForm | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [value, setValue] = useState<Record<string, unknown> | null>(null);
  const [valid, setValid] = useState(true);

  useEffect(() => {
    const controller = new AbortController();
    api<{ editForm: ApprovalEditForm | null }>(`/api/approvals/${encodeURIComponent(approvalId)}`, { signal: controller.signal })
      .then(({ editForm }) => {
        if (editForm) setForm(editForm);
        else setLoadError("This call can no longer be edited: its tool is not available, or it was decided meanwhile.");
      })
      .catch((caught: unknown) => {
        if (!controller.signal.aborted) setLoadError(caught instanceof ApiError ? caught.message : "The form could not be loaded. Try again.");
      });
    return () => controller.abort();
  }, [approvalId]);

  if (loadError) return <EditLoadFailure message={loadError} onCancel={onCancel} />;
  if (!form) return <p className="text-sm text-muted">Loading the form…</p>;

  const shown = Object.fromEntries(Object.entries(proposed).filter(([key]) => !form.kept.includes(key)));
  const kept = Object.fromEntries(Object.entries(proposed).filter(([key]) => form.kept.includes(key)));

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!valid) return;
    onApprove({ arguments: { ...kept, ...(value ?? shown) } });
  }

  return (
    <form onSubmit={submit} className="space-y-4" aria-label="Edit the arguments">
      <p className="text-sm text-muted">Change what the step will run, then approve it. The step is told what you changed.</p>
      <SchemaForm
        schema={form.inputSchema as JsonSchema}
        // What the form last passed on, once it did: the form would otherwise reset to the proposal on every render (a 422).
        value={value ?? shown}
        onChange={setValue}
        onValidityChange={setValid}
        idPrefix={`${idPrefix}-edit`}
        problems={problems}
      />
      <EditButtons busy={busy} disabled={!valid} onCancel={onCancel} />
    </form>
  );
}

function PlanEditor({ plan, idPrefix, busy, problem, onApprove, onCancel }: { plan: string; idPrefix: string; busy: boolean; problem: string | undefined; onApprove: (edit: ApprovalEdit) => void; onCancel: () => void }) {
  const [text, setText] = useState(plan);
  const [error, setError] = useState<string | undefined>();
  const id = `${idPrefix}-plan`;
  const shownError = error ?? problem;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (text.trim() === "") {
      setError("Write the plan to carry out, or deny it.");
      return;
    }
    setError(undefined);
    onApprove({ plan: text });
  }

  return (
    <form onSubmit={submit} className="space-y-3">
      <Field id={id} label="The plan to carry out" help="The agent carries out this plan instead of its own, and is told it was edited." error={shownError}>
        <textarea {...fieldAria(id, { help: true, error: shownError })} value={text} onChange={(event) => setText(event.target.value)} rows={8} maxLength={100_000} autoFocus className={CONTROL_CLASS} />
      </Field>
      <EditButtons busy={busy} disabled={false} onCancel={onCancel} />
    </form>
  );
}

function EditButtons({ busy, disabled, onCancel }: { busy: boolean; disabled: boolean; onCancel: () => void }) {
  return (
    <div className="flex flex-wrap gap-2">
      <Button type="submit" variant="primary" disabled={busy || disabled}>
        {busy ? "Approving…" : "Approve with these changes"}
      </Button>
      <Button onClick={onCancel} disabled={busy}>
        Back
      </Button>
    </div>
  );
}

function EditLoadFailure({ message, onCancel }: { message: string; onCancel: () => void }) {
  return (
    <div className="space-y-2">
      <p role="alert" className="text-sm font-medium text-caution">
        {message}
      </p>
      <Button onClick={onCancel}>Back</Button>
    </div>
  );
}

/** The 422's issues as the form's problems: `arguments.command` → `command`, `plan` → `plan`. */
export function editProblems(error: ApiError): Record<string, string> {
  return Object.fromEntries(error.issues.map((issue) => [String(issue.path).replace(/^arguments\./, ""), issue.message]));
}
