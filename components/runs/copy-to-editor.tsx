"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { api, ApiError } from "@/lib/client/api";
import type { PinRecord } from "@/lib/contracts/pins";
import type { StepRecord } from "@/lib/contracts/run";
import { shortRunId } from "@/lib/run-view/run-lineage";
import type { WorkflowDefinition } from "@/lib/workflow/definition";
import { pinnableNodeIds } from "@/lib/workflow/test-run-plan";

interface CopyToEditorProps {
  runId: string;
  workflowId: string;
  /** The run's steps as the page knows them, and whether each has an output (a big run's page holds the outputs back). */
  steps: readonly (Pick<StepRecord, "nodeId" | "status"> & { hasOutput: boolean })[];
  labelOf: (nodeId: string) => string;
}

/** What confirming would pin: each step with an output that the workflow's draft still has, and the pin it replaces. */
interface Plan {
  nodeId: string;
  replaces: PinRecord | undefined;
}

/**
 * Copy to editor: pins this run's step outputs into the workflow's draft as
 * test data, after saying which pins it replaces, then opens the editor.
 * Steps whose output holds something credential-like are refused by the
 * server and listed, with why, instead of opening the editor at once.
 */
export function CopyToEditor({ runId, workflowId, steps, labelOf }: CopyToEditorProps) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [plan, setPlan] = useState<Plan[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [refused, setRefused] = useState<{ nodeId: string; reason: string }[]>([]);
  const base = `/api/workflows/${encodeURIComponent(workflowId)}`;
  const editor = `/workflows/${encodeURIComponent(workflowId)}`;

  async function openDialog() {
    setOpen(true);
    setPlan(null);
    setError(null);
    setRefused([]);
    try {
      const [{ pins }, { workflow }] = await Promise.all([
        api<{ pins: PinRecord[] }>(`${base}/pins`),
        api<{ workflow: { definition: WorkflowDefinition } }>(base),
      ]);
      const inDraft = new Set(pinnableNodeIds(workflow.definition));
      const pinned = new Map(pins.map((pin) => [pin.nodeId, pin]));
      setPlan(steps.filter((step) => step.status === "succeeded" && step.hasOutput && inDraft.has(step.nodeId)).map((step) => ({ nodeId: step.nodeId, replaces: pinned.get(step.nodeId) })));
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : "The workflow's pins could not be loaded.");
    }
  }

  async function copy() {
    setBusy(true);
    setError(null);
    try {
      const answer = await api<{ pinned: string[]; refused: { nodeId: string; reason: string }[] }>(`${base}/pins`, { method: "POST", body: { fromRunId: runId } });
      if (answer.refused.length === 0) {
        router.push(editor);
        return;
      }
      setRefused(answer.refused);
      setBusy(false);
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : "The outputs could not be pinned.");
      setBusy(false);
    }
  }

  const replacing = plan?.filter((each) => each.replaces) ?? [];
  return (
    <>
      <Button onClick={() => void openDialog()} title="Pin this run's step outputs as test data in the editor">
        Copy to editor
      </Button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        title="Copy this run's outputs to the editor"
        description="Each step's output is pinned in the workflow's draft: Run this step and Run up to here use it instead of running the step. Production runs never use pins."
        footer={
          refused.length > 0 ? (
            <Button variant="primary" onClick={() => router.push(editor)}>
              Open the editor
            </Button>
          ) : (
            <>
              <Button variant="ghost" onClick={() => setOpen(false)}>
                Cancel
              </Button>
              <Button variant="primary" disabled={busy || !plan || plan.length === 0} onClick={() => void copy()}>
                {busy ? "Pinning…" : replacing.length > 0 ? `Pin and replace ${replacing.length}` : "Pin and open the editor"}
              </Button>
            </>
          )
        }
      >
        {error ? (
          <p role="alert" className="text-sm text-caution">
            {error}
          </p>
        ) : null}
        {refused.length > 0 ? (
          <div role="alert" className="space-y-2 text-sm">
            <p>The others are pinned. These outputs were not, since a pin is stored as typed:</p>
            <ul className="list-disc space-y-1 pl-5">
              {refused.map((each) => (
                <li key={each.nodeId}>
                  <span className="font-medium">{labelOf(each.nodeId)}</span>: {each.reason}
                </li>
              ))}
            </ul>
          </div>
        ) : plan === null ? (
          error ? null : <p className="text-sm text-muted">Loading what would be pinned…</p>
        ) : plan.length === 0 ? (
          <p className="text-sm text-muted">No step of this run has an output the workflow&apos;s draft could pin.</p>
        ) : (
          <ul className="space-y-1.5 text-sm" aria-label="Outputs to pin">
            {plan.map((each) => (
              <li key={each.nodeId}>
                <span className="font-medium">{labelOf(each.nodeId)}</span>
                <span className="text-muted">
                  {each.replaces
                    ? ` — replaces its pin ${each.replaces.fromRunId ? `from run ${shortRunId(each.replaces.fromRunId)}` : "(typed JSON)"}`
                    : " — pinned"}
                </span>
              </li>
            ))}
          </ul>
        )}
      </Dialog>
    </>
  );
}
