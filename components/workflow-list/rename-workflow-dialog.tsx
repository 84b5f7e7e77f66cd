"use client";

import { useEffect, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { CONTROL_CLASS, Field, fieldAria } from "@/components/ui/field";
import { ErrorNotice, Spinner } from "@/components/ui/page-header";
import { issuesByField } from "@/components/secrets/form-issues";
import { api, ApiError } from "@/lib/client/api";
import { workflowPath, type WorkflowDetailResponse } from "./workflow-detail";
import type { WorkflowListItem } from "./workflow-list-item";
import { useRestoreFocus } from "@/components/ui/use-restore-focus";

const FORM_ID = "rename-workflow-form";

type Detail = WorkflowDetailResponse["workflow"];

/**
 * Renames by saving the newest definition again with the new name: a new
 * version, refused (409) when someone saved the workflow since it was loaded
 * here, so their change is never overwritten.
 */
export function RenameWorkflowDialog({
  workflow,
  onClose,
  onRenamed,
}: {
  workflow: WorkflowListItem;
  onClose: () => void;
  onRenamed: (detail: Detail) => void;
}) {
  useRestoreFocus();
  const [detail, setDetail] = useState<Detail | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [name, setName] = useState(workflow.name);
  const [nameError, setNameError] = useState<string | undefined>();
  const [formError, setFormError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    api<WorkflowDetailResponse>(workflowPath(workflow.id), { signal: controller.signal })
      .then(({ workflow: loaded }) => {
        setDetail(loaded);
        setName(loaded.name);
      })
      .catch((error: unknown) => {
        if (!controller.signal.aborted) setLoadError(error instanceof Error ? error.message : String(error));
      });
    return () => controller.abort();
  }, [workflow.id]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!detail) return;
    if (name.trim() === "") {
      setNameError("Give the workflow a name.");
      return;
    }
    setNameError(undefined);
    setFormError(null);
    setPending(true);
    try {
      const saved = await api<WorkflowDetailResponse>(`${workflowPath(workflow.id)}?expectedVersion=${detail.latestVersion}`, {
        method: "PUT",
        body: { ...detail.definition, name: name.trim() },
      });
      onRenamed(saved.workflow);
    } catch (error) {
      setPending(false);
      if (error instanceof ApiError && error.status === 409) {
        // Load what they saved, so saving again renames the newest version.
        setFormError(error.message);
        api<WorkflowDetailResponse>(workflowPath(workflow.id))
          .then(({ workflow: newest }) => {
            setDetail(newest);
            setFormError(`${error.message.replace(/ Reload it.*$/, "")} Version ${newest.latestVersion} is loaded now: press Rename to rename it.`);
          })
          .catch(() => undefined);
        return;
      }
      if (error instanceof ApiError && error.issues.length > 0) {
        const sorted = issuesByField(error.issues, ["name"] as const);
        setNameError(sorted.fields.name);
        setFormError(sorted.other.length > 0 ? error.message : null);
        return;
      }
      setFormError(error instanceof Error ? error.message : String(error));
    }
  }

  return (
    <Dialog
      open
      onClose={onClose}
      title="Rename workflow"
      description={
        <>
          Saves version {detail ? detail.latestVersion + 1 : workflow.latestVersion + 1} of “{workflow.name}” with the new name; nothing
          else changes.
        </>
      }
      footer={
        <>
          <Button variant="ghost" onClick={onClose} disabled={pending}>
            Cancel
          </Button>
          <Button variant="primary" type="submit" form={FORM_ID} disabled={pending || !detail}>
            {pending ? "Renaming…" : "Rename"}
          </Button>
        </>
      }
    >
      {loadError ? (
        <ErrorNotice title="The workflow could not be loaded">{loadError}</ErrorNotice>
      ) : !detail ? (
        <Spinner label="Loading the workflow" />
      ) : (
        <form id={FORM_ID} onSubmit={submit} noValidate className="space-y-4">
          <Field id="rename-workflow-name" label="Name" required error={nameError}>
            <input
              {...fieldAria("rename-workflow-name", { error: nameError })}
              className={CONTROL_CLASS}
              value={name}
              onChange={(event) => setName(event.target.value)}
              maxLength={200}
              autoComplete="off"
              autoFocus
            />
          </Field>
          {formError ? <ErrorNotice title="Not renamed">{formError}</ErrorNotice> : null}
        </form>
      )}
    </Dialog>
  );
}
