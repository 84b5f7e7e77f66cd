"use client";

import { useCallback, useState } from "react";

/**
 * The approvals decided from this page, which keep their card (showing the
 * outcome, which takes focus) after the run's events say they are no longer
 * pending: without it the card, its outcome and the keyboard focus on it
 * would go the moment the decision's event arrives, before a screen reader
 * has read the outcome. Kept from the moment a decision is sent, since that
 * event can arrive before the answer to the decision does.
 */
export function useKeptApprovals(): { shows: (approval: { id: string; status: string }) => boolean; keep: (id: string) => void } {
  const [kept, setKept] = useState<ReadonlySet<string>>(() => new Set());
  const keep = useCallback((id: string) => setKept((current) => (current.has(id) ? current : new Set([...current, id]))), []);
  const shows = useCallback((approval: { id: string; status: string }) => approval.status === "pending" || kept.has(approval.id), [kept]);
  return { shows, keep };
}
