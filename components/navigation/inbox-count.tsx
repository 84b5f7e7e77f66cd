"use client";

import { useRouter } from "next/navigation";
import { createContext, useContext, useEffect, useState, type ReactNode } from "react";
import { startApprovalNotifier } from "./approval-notifier";

const PendingApprovals = createContext<number | null>(null);

/**
 * The number of approvals waiting for a person, kept live by the studio's
 * event feed (/api/events), for every badge below it: one connection however
 * many badges show it (the Inbox link, and the menu button on a small screen).
 * EventSource reconnects by itself after a drop, and the feed opens with the
 * current count, so a reconnect corrects it. The same feed drives the
 * browser's notification of an approval that newly waits for the person.
 */
export function PendingApprovalsProvider({ children }: { children: ReactNode }) {
  const [count, setCount] = useState<number | null>(null);
  const router = useRouter();
  useEffect(() => {
    const source = new EventSource("/api/events");
    const notifier = startApprovalNotifier((href) => router.push(href));
    const update = (event: MessageEvent<string>) => {
      const data = JSON.parse(event.data) as { pendingApprovals?: number; type?: string };
      if (typeof data.pendingApprovals === "number") setCount(data.pendingApprovals);
      // The first message after a reconnect too: an approval requested while the feed was down is found then.
      if (data.type === "approval-requested" || data.type === "approval-escalated" || event.type === "pending-approvals") notifier.check();
    };
    source.addEventListener("pending-approvals", update);
    source.addEventListener("change", update);
    return () => source.close();
  }, [router]);
  return <PendingApprovals.Provider value={count}>{children}</PendingApprovals.Provider>;
}

/** The waiting approvals as a badge ("2", read as "2 waiting"); nothing while none wait. */
export function InboxCount({ testId }: { testId?: string }) {
  const count = useContext(PendingApprovals);
  if (!count) return null;
  return (
    <span
      data-testid={testId}
      aria-label={`${count} waiting`}
      className="ml-1.5 inline-flex min-w-5 items-center justify-center rounded-full bg-caution px-1.5 text-[0.6875rem] font-bold leading-5 text-white dark:text-background"
    >
      {count}
    </span>
  );
}
