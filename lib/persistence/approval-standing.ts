import type { AnnouncedApprovals, ApprovalStanding } from "@/lib/workflow/run-types";
import type { StudioDatabase } from "./database";
import { NOTIFICATION_FIELDS, notificationView, notifiedNames } from "./notification-views";

/**
 * What a run's stored events already said of its approvals, and what there is
 * to say of a waiting one short of its decision: the two reads the engine's
 * approval waits compare (lib/workflow/approvals/approval-waits.ts), so each
 * vote, escalation, notification and view is told on the run's timeline once.
 */

const parseJson = <T>(text: string, fallback: T): T => {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
};

const APPROVAL_EVENT_TYPES = ["approval-requested", "approval-voted", "approval-escalated", "approval-notified", "approval-viewed", "approval-decided"];

export async function announcedApprovals(db: StudioDatabase, runId: string): Promise<AnnouncedApprovals> {
  const rows = await db.runEvent.findMany({ where: { runId, type: { in: APPROVAL_EVENT_TYPES } }, select: { type: true, payload: true } });
  const announced: AnnouncedApprovals = { requested: new Set(), decided: new Set(), voted: new Map(), escalated: new Set(), notified: new Set(), viewed: new Set() };
  for (const row of rows) {
    if (row.type === "approval-requested" || row.type === "approval-decided") {
      const id = parseJson<{ approval?: { id?: unknown } }>(row.payload, {}).approval?.id;
      if (typeof id === "string") (row.type === "approval-requested" ? announced.requested : announced.decided).add(id);
      continue;
    }
    const payload = parseJson<{ approvalId?: unknown; approvals?: unknown; notification?: { id?: unknown }; viewId?: unknown }>(row.payload, {});
    if (typeof payload.approvalId !== "string") continue;
    if (row.type === "approval-escalated") announced.escalated.add(payload.approvalId);
    else if (row.type === "approval-notified" && typeof payload.notification?.id === "string") announced.notified.add(payload.notification.id);
    else if (row.type === "approval-viewed" && typeof payload.viewId === "string") announced.viewed.add(payload.viewId);
    else if (row.type === "approval-voted" && typeof payload.approvals === "number") {
      announced.voted.set(payload.approvalId, Math.max(payload.approvals, announced.voted.get(payload.approvalId) ?? 0));
    }
  }
  return announced;
}

export async function approvalStanding(db: StudioDatabase, approvalId: string): Promise<ApprovalStanding | null> {
  const [row, views] = await Promise.all([
    db.approval.findUnique({
      where: { id: approvalId },
      select: {
        escalatedAt: true,
        votes: { orderBy: { createdAt: "asc" }, select: { personId: true, name: true, approve: true, createdAt: true } },
        // Delivered, or failed for good: a notification still being tried is not news yet.
        notifications: { where: { status: { in: ["sent", "failed"] } }, select: { ...NOTIFICATION_FIELDS, id: true, sentAt: true, nextAttemptAt: true } },
      },
    }),
    // On the log's (target, action) index.
    db.auditEntry.findMany({ where: { target: approvalId, action: "approval-viewed" }, orderBy: { at: "asc" }, select: { id: true, actor: true, at: true } }),
  ]);
  if (!row) return null;
  const names = await notifiedNames(row.notifications, db);
  return {
    votes: row.votes.map((vote) => ({ personId: vote.personId, name: vote.name, approve: vote.approve, at: vote.createdAt.toISOString() })),
    escalatedAt: row.escalatedAt?.toISOString() ?? null,
    // A failure's time is its last try's (a try moves nextAttemptAt to its own start).
    notifications: row.notifications.map((notification) => ({ ...notificationView(notification, names), id: notification.id, at: (notification.sentAt ?? notification.nextAttemptAt).toISOString() })),
    views: views.map((view) => ({ id: view.id, by: view.actor, at: view.at.toISOString() })),
  };
}
