import { notificationLine, type ApprovalNotificationView } from "@/lib/contracts/notifications";

/**
 * Who was told that the approval waits, and whether it reached them: a
 * failure ("Webhook to hooks.example.com failed 3 times: 500") stands out,
 * since the people it was for may not know it waits; deliveries are listed
 * quietly. Nothing when nobody was to be told.
 */
export function ApprovalNotifications({ notifications }: { notifications: readonly ApprovalNotificationView[] | undefined }) {
  if (!notifications || notifications.length === 0) return null;
  const failing = notifications.filter((notification) => notification.lastError !== null && notification.status !== "sent");
  const others = notifications.filter((notification) => !failing.includes(notification));
  return (
    <div className="space-y-1 text-xs" data-testid="approval-notifications">
      {failing.map((notification, index) => (
        <p key={`failing-${index}`} className="font-medium text-caution">
          {lineOf(notification)}.
        </p>
      ))}
      {others.length > 0 ? (
        <p className="text-muted">
          Told: {others.map(lineOf).join("; ")}.
        </p>
      ) : null}
    </div>
  );
}

/** The contract's line, and whom it was for when a person. */
function lineOf(notification: ApprovalNotificationView): string {
  return `${notificationLine(notification)}${notification.to === "the workflow" ? "" : ` (for ${notification.to})`}`;
}
