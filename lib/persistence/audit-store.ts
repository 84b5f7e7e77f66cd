import { AuditActionSchema, type AuditAction, type AuditEntry } from "@/lib/validations/access";
import { getDatabase, type StudioDatabase } from "./database";
import { newId } from "./ids";

/**
 * The security log: who signed in (and who failed to), who confirmed a command
 * or chose a mode that lets actions run without asking, and when. Written by
 * the routes that do those things; shown on the Security page.
 */

export interface AuditEntryInput {
  actor: string;
  /** The person who did it, when one did. */
  actorId?: string | null;
  action: AuditAction;
  target?: string | null;
  detail?: Record<string, unknown>;
  clientAddress?: string;
}

export async function recordAudit(entry: AuditEntryInput, database: StudioDatabase = getDatabase()): Promise<void> {
  await database.auditEntry.create({
    data: {
      id: newId(),
      actor: entry.actor.slice(0, 200),
      actorId: entry.actorId ?? null,
      action: entry.action,
      target: entry.target ?? null,
      detail: JSON.stringify(entry.detail ?? {}),
      clientAddress: entry.clientAddress ?? "",
    },
  });
}

export async function listAudit(options: { limit?: number } = {}, database: StudioDatabase = getDatabase()): Promise<AuditEntry[]> {
  const rows = await database.auditEntry.findMany({ orderBy: { id: "desc" }, take: options.limit ?? 200 });
  return rows.map((row) => ({
    id: row.id,
    at: row.at.toISOString(),
    actor: row.actor,
    action: AuditActionSchema.parse(row.action),
    target: row.target,
    detail: JSON.parse(row.detail) as Record<string, unknown>,
    clientAddress: row.clientAddress,
  }));
}
