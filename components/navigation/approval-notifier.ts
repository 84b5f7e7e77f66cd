"use client";

import { APPROVAL_KIND_HEADLINE, approvalWorkflowTitle, type ApprovalForViewer } from "@/lib/contracts/approval";
import type { NotificationChoicesView } from "@/lib/contracts/notifications";

/**
 * The browser's own notification when an approval newly waits for the
 * signed-in person (viewer.mayDecide), while a studio tab is open: the live
 * feed says an approval was requested or escalated (to them, perhaps), this asks the API which wait for
 * them, and tells of those it had not seen. What waited when the tab opened
 * is not announced again. Only with the person's choice on (Settings →
 * Account) and the browser's permission; clicking it opens the card.
 */
export interface ApprovalNotifier {
  /** The feed said an approval was requested or escalated (or the feed reconnected): look for new ones. */
  check(): void;
}

/** At most this many notifications for one look: a burst of approvals is one click away in the inbox anyway. */
const MAX_AT_ONCE = 3;

/** `navigate`: the router's push, so the card opens without reloading the studio. */
export function startApprovalNotifier(navigate: (href: string) => void): ApprovalNotifier {
  let seen: Set<string> | null = null;
  let wanted: boolean | null = null;
  let looking: Promise<void> | null = null;
  let again = false;

  const waitingForMe = async (): Promise<ApprovalForViewer[]> => {
    const response = await fetch("/api/approvals?status=pending&for=me", { headers: { accept: "application/json" } });
    if (!response.ok) return [];
    return ((await response.json()) as { approvals: ApprovalForViewer[] }).approvals;
  };

  const look = async () => {
    if (wanted === null) {
      const response = await fetch("/api/me/notifications", { headers: { accept: "application/json" } });
      wanted = response.ok ? ((await response.json()) as NotificationChoicesView).browser : false;
    }
    const approvals = await waitingForMe();
    const fresh = seen === null ? [] : approvals.filter((approval) => !seen!.has(approval.id));
    seen = new Set(approvals.map((approval) => approval.id));
    if (!wanted || typeof Notification === "undefined" || Notification.permission !== "granted") return;
    for (const approval of fresh.slice(0, MAX_AT_ONCE)) show(approval, navigate);
  };

  const check = () => {
    if (looking) {
      again = true;
      return;
    }
    looking = look()
      .catch(() => undefined)
      .finally(() => {
        looking = null;
        if (again) {
          again = false;
          check();
        }
      });
  };
  // What waits now is known, so only what comes after is announced.
  check();
  return { check };
}

function show(approval: ApprovalForViewer, navigate: (href: string) => void): void {
  const notification = new Notification(`${approvalWorkflowTitle(approval)}: ${approval.nodeLabel}`, {
    body: `${APPROVAL_KIND_HEADLINE[approval.kind]} and waits for your decision.`,
    // One per approval: a second tab's notification replaces this one rather than adding to it.
    tag: `approval-${approval.id}`,
  });
  notification.onclick = () => {
    window.focus();
    navigate(`/inbox?approval=${encodeURIComponent(approval.id)}`);
    notification.close();
  };
}
