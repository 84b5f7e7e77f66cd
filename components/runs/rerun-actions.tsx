"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { api, ApiError } from "@/lib/client/api";
import { FINISHED_RUN_STATUSES, type RunDetail, type RunStatus } from "@/lib/contracts/run";
import type { RerunBody } from "@/lib/validations/run";

interface RerunActionsProps {
  runId: string;
  /** The run's status as the view knows it now: the buttons appear once it has finished. */
  status: RunStatus;
  /** The version the run ran, and the workflow's newest: Run again offers both when they differ. */
  version: number;
  latestVersion: number;
}

/** What the person asked for, as the request that does it. */
type Rerun = { kind: "retry" } | { kind: "rerun"; body: RerunBody };

/**
 * The run page's ways to go on from a finished run: Retry from the failed step
 * (a failed or cancelled run: what succeeded is kept, the rest runs on the same
 * version) and Run again with the same inputs (on this run's version, or the
 * newest when there is a newer one). Each opens the new run's page; a refusal
 * is said beside the buttons.
 */
export function RerunActions({ runId, status, version, latestVersion }: RerunActionsProps) {
  const router = useRouter();
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  if (!FINISHED_RUN_STATUSES.has(status)) return null;

  async function start(rerun: Rerun, label: string) {
    setBusy(label);
    setError(null);
    try {
      const path = `/api/runs/${encodeURIComponent(runId)}/${rerun.kind}`;
      const { run } = await api<{ run: RunDetail }>(path, { method: "POST", ...(rerun.kind === "rerun" ? { body: rerun.body } : {}) });
      router.push(`/runs/${encodeURIComponent(run.id)}`);
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : "The new run could not be started.");
      setBusy(null);
    }
  }

  const retryLabel = status === "cancelled" ? "Retry from where it stopped" : "Retry from failed step";
  const newer = latestVersion > version;
  const buttons: { label: string; rerun: Rerun; primary?: boolean; description: string }[] = [
    ...(status === "failed" || status === "cancelled"
      ? [{ label: retryLabel, rerun: { kind: "retry" } as const, primary: true, description: "Keeps the steps that succeeded and runs the rest again, on the same version." }]
      : []),
    {
      label: newer ? `Run again on version ${version}` : "Run again",
      rerun: { kind: "rerun", body: { version: "same" } },
      description: `Runs every step again with the same inputs, on version ${version}.`,
    },
    ...(newer
      ? [{ label: `Run again on the latest (version ${latestVersion})`, rerun: { kind: "rerun", body: { version: "latest" } } as const, description: "Runs the newest version with the same inputs." }]
      : []),
  ];

  return (
    <div className="flex max-w-md flex-col items-end gap-2" data-testid="rerun-actions">
      <div className="flex flex-wrap justify-end gap-2">
        {buttons.map((button) => (
          <Button
            key={button.label}
            variant={button.primary ? "primary" : "secondary"}
            onClick={() => void start(button.rerun, button.label)}
            disabled={busy !== null}
            title={button.description}
          >
            {busy === button.label ? "Starting…" : button.label}
          </Button>
        ))}
      </div>
      {error ? (
        <p role="alert" className="text-right text-sm text-caution">
          {error}
        </p>
      ) : null}
    </div>
  );
}
