"use client";

import { useEffect, useMemo, useState } from "react";
import { api } from "@/lib/client/api";
import type { ApprovalForViewer } from "@/lib/contracts/approval";
import type { ApprovalView } from "@/lib/run-view/apply-event";

/**
 * What a run's events do not say about its waiting approvals, read as the
 * inbox reads it (GET /api/approvals?runId=…): who decides and whether this
 * person may, the votes so far, the deadline, who was told. Read again when
 * an approval starts or stops waiting, gains a vote, is escalated or someone is told of it, so the run page's
 * cards say "1 of 2 approved, by Ada" as the inbox's do.
 */
export function useApprovalDetails(runId: string, approvals: readonly ApprovalView[]): ReadonlyMap<string, ApprovalForViewer> {
  const [details, setDetails] = useState<ReadonlyMap<string, ApprovalForViewer>>(() => new Map());
  // Changes when one starts or stops waiting, gains a vote, is escalated or told of: the moments what is shown beside it changes.
  const key = useMemo(
    () =>
      approvals
        .filter((approval) => approval.status === "pending")
        .map((approval) => `${approval.id}:${approval.approvalsSoFar ?? 0}:${approval.escalated === true}:${approval.notices ?? 0}`)
        .join(","),
    [approvals],
  );
  useEffect(() => {
    if (key === "") return;
    let current = true;
    api<{ approvals: ApprovalForViewer[] }>(`/api/approvals?runId=${encodeURIComponent(runId)}&status=pending`)
      .then(({ approvals: fresh }) => {
        if (current) setDetails(new Map(fresh.map((approval) => [approval.id, approval])));
      })
      // Without them the cards show what the events say, and the server still checks every decision.
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [runId, key]);
  return details;
}
