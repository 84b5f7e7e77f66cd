"use client";

import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import type { ApiIssue } from "@/lib/client/api";

export type SaveProblem =
  | { kind: "conflict"; message: string }
  | { kind: "invalid"; message: string; issues: ApiIssue[] }
  | { kind: "failed"; message: string };

interface SaveProblemDialogProps {
  problem: SaveProblem | null;
  reloading: boolean;
  onClose: () => void;
  /** Discards the changes and loads the newest saved version. */
  onReload: () => void;
}

/** Why a save did not happen: someone else saved first (409), the definition is malformed (422), or the server failed. */
export function SaveProblemDialog({ problem, reloading, onClose, onReload }: SaveProblemDialogProps) {
  const title =
    problem?.kind === "conflict" ? "Someone else saved this workflow" : problem?.kind === "invalid" ? "The workflow could not be saved" : "Saving failed";
  return (
    <Dialog
      open={problem !== null}
      onClose={onClose}
      title={title}
      footer={
        problem?.kind === "conflict" ? (
          <>
            <Button onClick={onClose}>Keep my changes</Button>
            <Button variant="danger" onClick={onReload} disabled={reloading}>
              {reloading ? "Reloading…" : "Reload their version"}
            </Button>
          </>
        ) : (
          <Button onClick={onClose}>Close</Button>
        )
      }
    >
      {problem?.kind === "conflict" ? (
        <div className="space-y-2 text-sm">
          <p>
            A newer version was saved (in another tab or by another person) after you opened this one, so saving now would overwrite it
            unseen.
          </p>
          <p className="text-muted">
            Reload to see the newest version (your unsaved changes here are discarded), or keep your changes and copy what you need first.
          </p>
        </div>
      ) : problem?.kind === "invalid" ? (
        <div className="space-y-2 text-sm">
          <p>Fix these, then save again:</p>
          <ul className="list-disc space-y-1 pl-5 text-caution">
            {problem.issues.length > 0 ? (
              problem.issues.map((issue, index) => (
                <li key={index}>
                  <span className="font-mono">{issue.path || "workflow"}</span>: {issue.message}
                </li>
              ))
            ) : (
              <li>{problem.message}</li>
            )}
          </ul>
        </div>
      ) : problem ? (
        <p className="text-sm">{problem.message}</p>
      ) : null}
    </Dialog>
  );
}
