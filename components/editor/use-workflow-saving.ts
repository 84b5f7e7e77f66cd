"use client";

import { useCallback, useState } from "react";
import { api, ApiError } from "@/lib/client/api";
import type { WorkflowDefinition } from "@/lib/workflow/definition";
import type { SaveProblem } from "./save-problem-dialog";

interface WorkflowSavingOptions {
  workflowId: string;
  definition: WorkflowDefinition;
  /** The version the editor's definition was loaded from or last saved as. */
  version: number;
  publishedVersion: number | null;
  markSaved: (saved: WorkflowDefinition, version: number) => void;
  /** Replaces the document with another version (the newest, after a conflict). */
  reset: (definition: WorkflowDefinition, version: number) => void;
  clearSelection: () => void;
  /** A line for the editor's notice bar. */
  notify: (text: string) => void;
}

/**
 * The editor's traffic with the server about the workflow itself: saving
 * (with the version it was loaded from, so a newer save elsewhere is a
 * conflict the dialog explains), loading the newest version after one, and
 * publishing. A failure is kept as `saveProblem` for the dialog, never thrown.
 */
export function useWorkflowSaving({ workflowId, definition, version, publishedVersion: loadedPublishedVersion, markSaved, reset, clearSelection, notify }: WorkflowSavingOptions) {
  const [saving, setSaving] = useState(false);
  const [saveProblem, setSaveProblem] = useState<SaveProblem | null>(null);
  const [reloading, setReloading] = useState(false);
  const [publishedVersion, setPublishedVersion] = useState(loadedPublishedVersion);
  const [publishing, setPublishing] = useState(false);

  /** The saved version, or null when it could not be saved (the dialog says why). */
  const save = useCallback(async (): Promise<number | null> => {
    if (saving) return null;
    const sent = definition;
    setSaving(true);
    try {
      const { workflow } = await api<{ workflow: { latestVersion: number } }>(
        `/api/workflows/${encodeURIComponent(workflowId)}?expectedVersion=${version}`,
        { method: "PUT", body: sent },
      );
      markSaved(sent, workflow.latestVersion);
      return workflow.latestVersion;
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 409) setSaveProblem({ kind: "conflict", message: failure.message });
      else if (failure instanceof ApiError && failure.status === 422) setSaveProblem({ kind: "invalid", message: failure.message, issues: failure.issues });
      else setSaveProblem({ kind: "failed", message: failure instanceof ApiError ? failure.message : "The workflow could not be saved." });
      return null;
    } finally {
      setSaving(false);
    }
  }, [saving, definition, workflowId, version, markSaved]);

  const reloadNewest = useCallback(async () => {
    setReloading(true);
    try {
      const { workflow } = await api<{ workflow: { latestVersion: number; definition: WorkflowDefinition } }>(
        `/api/workflows/${encodeURIComponent(workflowId)}`,
      );
      reset(workflow.definition, workflow.latestVersion);
      clearSelection();
      setSaveProblem(null);
    } catch (failure) {
      setSaveProblem({ kind: "failed", message: failure instanceof ApiError ? failure.message : "The newest version could not be loaded." });
    } finally {
      setReloading(false);
    }
  }, [workflowId, reset, clearSelection]);

  const changePublished = useCallback(
    async (publish: boolean) => {
      setPublishing(true);
      try {
        const { published } = await api<{ published: { publishedVersion: number | null } }>(`/api/workflows/${encodeURIComponent(workflowId)}/publish`, {
          method: publish ? "POST" : "DELETE",
          ...(publish ? { body: { version } } : {}),
        });
        setPublishedVersion(published.publishedVersion);
        notify(published.publishedVersion === null ? "Unpublished: the triggers are stopped." : `Version ${published.publishedVersion} is live: its triggers start runs.`);
      } catch (failure) {
        setSaveProblem({ kind: "failed", message: failure instanceof ApiError ? failure.message : "The workflow could not be published." });
      } finally {
        setPublishing(false);
      }
    },
    [workflowId, version, notify],
  );

  return {
    save,
    saving,
    saveProblem,
    dismissSaveProblem: useCallback(() => setSaveProblem(null), []),
    reloading,
    reloadNewest,
    publishedVersion,
    publishing,
    changePublished,
  };
}
