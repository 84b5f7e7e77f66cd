"use client";

import { useEffect, useState } from "react";
import { api } from "@/lib/client/api";
import type { RunDetail } from "@/lib/contracts/run";
import type { StepView } from "@/lib/run-view/apply-event";

/**
 * A step's resolved arguments as its run recorded them. The event stream does
 * not carry them, so once the step has finished they are read from the run's
 * record; "loading" until then, null when the run recorded none (or could not
 * be read).
 */
export function useRecordedInput(runId: string, nodeId: string, step: Pick<StepView, "status" | "input">): unknown {
  const [fetched, setFetched] = useState<{ key: string; input: unknown } | null>(null);
  const key = `${runId}:${nodeId}`;
  const finished = step.status === "succeeded" || step.status === "failed";
  const needed = step.input === undefined && finished;
  useEffect(() => {
    if (!needed) return;
    let cancelled = false;
    api<{ run: RunDetail }>(`/api/runs/${encodeURIComponent(runId)}`)
      .then(({ run }) => {
        if (!cancelled) setFetched({ key, input: run.steps.find((each) => each.nodeId === nodeId)?.input ?? null });
      })
      .catch(() => {
        if (!cancelled) setFetched({ key, input: null });
      });
    return () => {
      cancelled = true;
    };
  }, [needed, key, runId, nodeId]);
  if (!needed) return step.input;
  return fetched?.key === key ? fetched.input : "loading";
}
