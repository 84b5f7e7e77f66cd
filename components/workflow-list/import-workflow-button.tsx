"use client";

import { useRef, useState, type ChangeEvent } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { asSentence, describeIssuePath } from "@/components/secrets/form-issues";
import { api, ApiError, type ApiIssue } from "@/lib/client/api";
import type { PrivilegedSetting } from "@/lib/workflow/privileged-settings";
import type { WorkflowDetailResponse } from "./workflow-detail";

interface ImportFailure {
  fileName: string;
  message: string;
  issues: ApiIssue[];
}

/**
 * "Import JSON": reads a definition file (an export from this or another
 * studio) and creates a workflow from it. The server checks it; every issue
 * it finds is shown with its path, so the file can be fixed in one go. It
 * arrives without settings that act without asking; `dropped` names them.
 */
export function ImportWorkflowButton({
  onImported,
}: {
  onImported: (workflow: WorkflowDetailResponse["workflow"], dropped: PrivilegedSetting[]) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<ImportFailure | null>(null);

  async function importFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    // Cleared at once, so choosing the same file again (after fixing it) imports it again.
    event.target.value = "";
    if (!file) return;
    setPending(true);
    try {
      let definition: unknown;
      try {
        definition = JSON.parse(await file.text());
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        setFailure({ fileName: file.name, message: `“${file.name}” is not valid JSON (${reason}). Choose a file exported from the studio.`, issues: [] });
        return;
      }
      const { workflow, dropped } = await api<WorkflowDetailResponse & { dropped: PrivilegedSetting[] }>("/api/workflows/import", { body: definition });
      onImported(workflow, dropped);
    } catch (error) {
      if (error instanceof ApiError && error.issues.length > 0) {
        setFailure({
          fileName: file.name,
          message: `“${file.name}” is not a workflow the studio can import. Fix these and import it again:`,
          issues: error.issues,
        });
      } else {
        setFailure({ fileName: file.name, message: error instanceof Error ? error.message : String(error), issues: [] });
      }
    } finally {
      setPending(false);
    }
  }

  return (
    <>
      <div className="relative">
        <input
          ref={input}
          id="import-workflow-file"
          type="file"
          accept="application/json,.json"
          onChange={importFile}
          disabled={pending}
          className="peer sr-only"
        />
        <label
          htmlFor="import-workflow-file"
          className="inline-flex h-9 cursor-pointer items-center justify-center gap-1.5 whitespace-nowrap rounded-md border border-line-strong bg-surface px-3.5 text-sm font-medium text-foreground shadow-card transition hover:bg-surface-sunken peer-disabled:cursor-wait peer-disabled:opacity-60 peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-[var(--focus)]"
        >
          <svg aria-hidden="true" viewBox="0 0 24 24" className="size-4" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round">
            <path d="M12 15V3M7 8l5-5 5 5M4 21h16" />
          </svg>
          {pending ? "Importing…" : "Import JSON"}
        </label>
      </div>
      {failure ? (
        <Dialog
          open
          onClose={() => setFailure(null)}
          title={failure.issues.length > 0 ? "The file does not fit" : "The file could not be imported"}
          footer={
            <>
              <Button variant="ghost" onClick={() => setFailure(null)}>
                Close
              </Button>
              <Button
                variant="primary"
                onClick={() => {
                  setFailure(null);
                  input.current?.click();
                }}
              >
                Choose another file
              </Button>
            </>
          }
        >
          <p className="text-sm leading-relaxed">{failure.message}</p>
          {failure.issues.length > 0 ? (
            <ul aria-label={`Problems in ${failure.fileName}`} className="mt-4 divide-y divide-line overflow-hidden rounded-lg border border-line">
              {failure.issues.map((issue, index) => (
                <li key={`${issue.path}-${index}`} className="flex flex-col gap-0.5 px-3 py-2 text-sm sm:flex-row sm:gap-3">
                  <code className="shrink-0 font-mono text-xs leading-5 text-caution break-all sm:w-40">
                    {describeIssuePath(issue.path)}
                  </code>
                  <span className="text-foreground">{asSentence(issue.message)}</span>
                </li>
              ))}
            </ul>
          ) : null}
        </Dialog>
      ) : null}
    </>
  );
}
