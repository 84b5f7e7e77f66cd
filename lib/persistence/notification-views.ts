import type { ApprovalNotificationView } from "@/lib/contracts/notifications";
import type { StudioDatabase } from "./database";

/**
 * An approval's notifications as cards and run events show them: to whom
 * (a person's name, or "the workflow" for its webhook), how, and how it went.
 */

export const NOTIFICATION_FIELDS = { personId: true, channel: true, address: true, round: true, status: true, attempts: true, lastError: true } as const;
export type NotificationRow = { personId: string; channel: string; address: string; round: string; status: string; attempts: number; lastError: string | null };

/** The names of the people the notifications went to, in one query. */
export async function notifiedNames(notifications: readonly NotificationRow[], database: StudioDatabase): Promise<Map<string, string>> {
  const ids = [...new Set(notifications.map((notification) => notification.personId).filter((id) => id !== ""))];
  if (ids.length === 0) return new Map();
  return new Map((await database.person.findMany({ where: { id: { in: ids } }, select: { id: true, displayName: true } })).map((person) => [person.id, person.displayName]));
}

export function notificationView(row: NotificationRow, names: ReadonlyMap<string, string>): ApprovalNotificationView {
  return {
    channel: row.channel === "webhook" ? "webhook" : "email",
    to: row.personId === "" ? "the workflow" : (names.get(row.personId) ?? "someone no longer here"),
    address: row.address,
    round: row.round,
    status: row.status === "sent" ? "sent" : row.status === "failed" ? "failed" : "pending",
    attempts: row.attempts,
    lastError: row.lastError,
  };
}
