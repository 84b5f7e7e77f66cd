"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { useChangeFeed } from "@/components/runs/use-change-feed";
import { Button } from "@/components/ui/button";
import { EmptyState, ErrorNotice, Spinner } from "@/components/ui/page-header";
import { api, ApiError } from "@/lib/client/api";
import type { ApprovalForViewer } from "@/lib/contracts/approval";
import type { ToolTitles } from "@/lib/run-view/tool-titles";
import { ApprovalCard } from "./approval-card";

/** How long a decided card stays, showing its outcome, before it leaves the list. */
const LINGER_MS = 2500;

/** Every pending approval across runs, oldest first, live. */
export function InboxList({
  initialApprovals,
  initialError = null,
  toolTitles,
}: {
  /** Null when the server could not read them; `initialError` says why. */
  initialApprovals: ApprovalForViewer[] | null;
  initialError?: string | null;
  toolTitles: ToolTitles;
}) {
  const [approvals, setApprovals] = useState<ApprovalForViewer[] | null>(initialApprovals);
  const [error, setError] = useState<string | null>(initialError);
  const [decidedIds, setDecidedIds] = useState<ReadonlySet<string>>(new Set());
  // Being decided here, or decided and still showing their outcome: kept in place whatever the server now says
  // (its change event can arrive before the answer to the decision does).
  const lingering = useRef(new Map<string, ApprovalForViewer>());
  const request = useRef(0);
  // The empty inbox's message, or the count above the cards: whichever is shown.
  const listTop = useRef<HTMLElement>(null);
  // Where focus goes once a decided card that held it has left: the next card waiting, else the top of the list.
  const focusAfterLeaving = useRef<string | "top" | null>(null);

  // The list as shown, for the timer that removes a decided card (it outlives the render that set it).
  const shownApprovals = useRef(approvals);
  useEffect(() => {
    shownApprovals.current = approvals;
    const target = focusAfterLeaving.current;
    if (target === null) return;
    focusAfterLeaving.current = null;
    const title = target === "top" ? null : document.querySelector<HTMLElement>(`[data-approval-id="${CSS.escape(target)}"] [data-approval-title]`);
    (title ?? listTop.current)?.focus();
  }, [approvals]);

  // A notification's link (/inbox?approval=<id>) opens its card: scrolled to and focused, never decided.
  useEffect(() => {
    const wanted = new URLSearchParams(window.location.search).get("approval");
    if (!wanted) return;
    const title = document.querySelector<HTMLElement>(`[data-approval-id="${CSS.escape(wanted)}"] [data-approval-title]`);
    title?.scrollIntoView({ block: "center" });
    title?.focus({ preventScroll: true });
    // Opened from a link: the security log records who opened which card (the list alone does not).
    void api(`/api/approvals/${encodeURIComponent(wanted)}`).catch(() => undefined);
  }, []);

  const load = useCallback(async () => {
    const ticket = ++request.current;
    try {
      const { approvals: fresh } = await api<{ approvals: ApprovalForViewer[] }>("/api/approvals?status=pending");
      if (ticket !== request.current) return;
      setApprovals((previous) => {
        const merged = [...fresh];
        for (const [id, approval] of lingering.current) {
          if (merged.some((each) => each.id === id)) continue;
          const at = previous?.findIndex((each) => each.id === id) ?? -1;
          merged.splice(at === -1 ? merged.length : Math.min(at, merged.length), 0, approval);
        }
        return merged;
      });
      setError(null);
    } catch (caught) {
      if (ticket !== request.current) return;
      setError(caught instanceof ApiError ? caught.message : "The inbox could not be loaded.");
    }
  }, []);

  useChangeFeed(load);

  const onDecided = useCallback((approval: ApprovalForViewer) => {
    const id = approval.id;
    lingering.current.set(id, approval);
    setDecidedIds((current) => new Set([...current, id]));
    setTimeout(() => {
      const card = document.querySelector(`[data-approval-id="${CSS.escape(id)}"]`);
      if (card?.contains(document.activeElement)) {
        // Still waiting: neither decided nor being decided here (those are the lingering ones, this card among them).
        const list = shownApprovals.current ?? [];
        const at = list.findIndex((each) => each.id === id);
        const waiting = (each: ApprovalForViewer) => !lingering.current.has(each.id);
        const next = list.slice(at + 1).find(waiting) ?? list.slice(0, Math.max(at, 0)).reverse().find(waiting);
        focusAfterLeaving.current = next?.id ?? "top";
      }
      lingering.current.delete(id);
      setDecidedIds((current) => new Set([...current].filter((each) => each !== id)));
      setApprovals((current) => current?.filter((each) => each.id !== id) ?? current);
    }, LINGER_MS);
  }, []);

  if (approvals === null) {
    return error ? (
      <ErrorNotice title="Could not load the inbox">
        <p>{error}</p>
        <Button size="sm" className="mt-2" onClick={() => void load()}>
          Try again
        </Button>
      </ErrorNotice>
    ) : (
      <Spinner label="Loading the inbox" />
    );
  }
  // Theirs to decide first, then what waits for others; oldest first within each.
  const ordered = [...approvals].sort((one, other) => Number(other.viewer.mayDecide) - Number(one.viewer.mayDecide));
  const waiting = approvals.filter((approval) => !decidedIds.has(approval.id)).length;
  const forOthers = approvals.filter((approval) => !decidedIds.has(approval.id) && !approval.viewer.mayDecide).length;
  return (
    <div className="space-y-4">
      {error ? <ErrorNotice title="The inbox may be out of date">{error}</ErrorNotice> : null}
      {approvals.length === 0 ? (
        <div ref={(element) => void (listTop.current = element)} tabIndex={-1} className="rounded-xl">
          <EmptyState title="Nothing is waiting for you">
            When a run wants to write a file, run a command, reach the network or asks you something, it waits here for your decision.
          </EmptyState>
        </div>
      ) : (
        <>
          <p ref={(element) => void (listTop.current = element)} tabIndex={-1} className="rounded-sm text-sm text-muted" aria-live="polite">
            {waiting === 0 ? "All decided." : forOthers === 0 ? `${waiting} waiting, oldest first.` : `${waiting - forOthers} waiting for you, ${forOthers} for others; oldest first.`}
          </p>
          <ul className="space-y-4">
            {ordered.map((approval, index) => (
              <li key={approval.id}>
                {/* Those others decide come after the person's own, under a heading of their own. */}
                {!approval.viewer.mayDecide && (index === 0 || ordered[index - 1]!.viewer.mayDecide) ? (
                  <h2 className="mb-3 mt-2 text-xs font-semibold uppercase tracking-wide text-muted" data-testid="waiting-for-others">
                    Waiting for others
                  </h2>
                ) : null}
                <ApprovalCard
                  approval={approval}
                  toolTitles={toolTitles}
                  mayDecide={approval.viewer.mayDecide}
                  readOnlyReason={approval.viewer.reason}
                  onDeciding={() => lingering.current.set(approval.id, approval)}
                  onDecided={() => onDecided(approval)}
                  onStale={() => {
                    lingering.current.delete(approval.id);
                    void load();
                  }}
                />
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
