"use client";

import { useEffect, useState, type FormEvent } from "react";
import { FormDialog } from "@/components/ui/dialog";
import { ErrorNotice, Spinner } from "@/components/ui/page-header";
import { issuesByField } from "@/components/secrets/form-issues";
import { api, ApiError } from "@/lib/client/api";
import { workflowPath, type WorkflowDetailResponse } from "./workflow-detail";
import type { WorkflowListItem } from "./workflow-list-item";
import { useRestoreFocus } from "@/components/ui/use-restore-focus";
import { WorkflowNameField } from "./workflow-name-field";

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
    <FormDialog
      onSubmit={submit}
      onClose={onClose}
      title="Rename workflow"
      description={
        <>
          Saves version {detail ? detail.latestVersion + 1 : workflow.latestVersion + 1} of “{workflow.name}” with the new name; nothing
          else changes.
        </>
      }
      pending={pending}
      submitLabel="Rename"
      pendingLabel="Renaming…"
      submitDisabled={!detail}
      error={formError}
      errorTitle="Not renamed"
      formClassName="space-y-4"
      instead={
        loadError ? <ErrorNotice title="The workflow could not be loaded">{loadError}</ErrorNotice> : !detail ? <Spinner label="Loading the workflow" /> : null
      }
    >
      <WorkflowNameField id="rename-workflow-name" value={name} onChange={setName} error={nameError} />
    </FormDialog>
  );
}
