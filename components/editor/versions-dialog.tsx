"use client";

import { useFormatTime } from "@/components/ui/use-format-time";
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { ErrorNotice, Spinner } from "@/components/ui/page-header";
import { api, ApiError } from "@/lib/client/api";
import type { WorkflowDefinition } from "@/lib/workflow/definition";

interface VersionSummary {
  id: string;
  version: number;
  createdAt: string;
}

interface VersionsDialogProps {
  open: boolean;
  workflowId: string;
  /** The version the editor holds. */
  currentVersion: number;
  onClose: () => void;
  /** Loads a stored version into the editor as unsaved changes. */
  onRestore: (definition: WorkflowDefinition, version: number) => void;
}

/** Every saved version, newest first; restoring one loads it as unsaved changes, so saving makes it a new version. */
export function VersionsDialog({ open, onClose, ...props }: VersionsDialogProps) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Versions"
      description="Every save is kept. Restoring a version loads it into the editor as unsaved changes; save to make it the newest version."
      footer={<Button onClick={onClose}>Close</Button>}
    >
      {open ? <VersionList {...props} /> : null}
    </Dialog>
  );
}

/** Mounted each time the dialog opens, so it always shows the current list. */
function VersionList({ workflowId, currentVersion, onRestore }: Omit<VersionsDialogProps, "open" | "onClose">) {
  const [versions, setVersions] = useState<VersionSummary[] | null>(null);
  const formatTime = useFormatTime();
  const [error, setError] = useState<string | null>(null);
  const [restoring, setRestoring] = useState<number | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    api<{ versions: VersionSummary[] }>(`/api/workflows/${encodeURIComponent(workflowId)}/versions`, { signal: controller.signal })
      .then((result) => setVersions(result.versions))
      .catch((failure: unknown) => {
        if (!controller.signal.aborted) setError(failure instanceof ApiError ? failure.message : "The versions could not be loaded.");
      });
    return () => controller.abort();
  }, [workflowId]);

  const restore = async (version: number) => {
    setRestoring(version);
    setError(null);
    try {
      const result = await api<{ version: { definition: WorkflowDefinition } }>(
        `/api/workflows/${encodeURIComponent(workflowId)}/versions/${version}`,
      );
      onRestore(result.version.definition, version);
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : "That version could not be loaded.");
    } finally {
      setRestoring(null);
    }
  };

  return (
    <div className="space-y-3">
      {error ? <ErrorNotice title="Versions">{error}</ErrorNotice> : null}
      {versions === null && !error ? <Spinner label="Loading versions" /> : null}
      {versions ? (
        <ul className="divide-y divide-line rounded-lg border border-line">
          {versions.map((each) => (
            <li key={each.id} className="flex items-center gap-3 px-3 py-2.5">
              <span className="font-mono text-sm font-semibold">v{each.version}</span>
              <time dateTime={each.createdAt} className="text-sm text-muted">
                {formatTime(each.createdAt, "date-time")}
              </time>
              {each.version === currentVersion ? (
                <span className="rounded-full bg-accent-soft px-2 py-0.5 text-xs font-medium text-accent">newest saved</span>
              ) : null}
              <Button
                size="sm"
                className="ml-auto"
                onClick={() => void restore(each.version)}
                disabled={restoring !== null}
                aria-label={`Restore version ${each.version}`}
              >
                {restoring === each.version ? "Loading…" : "Restore"}
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
