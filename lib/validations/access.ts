import { z } from "zod";
import { checkCursor, ListCursorTextSchema, ListDateSchema, ListLimitSchema } from "@/lib/contracts/list-page";

/**
 * The shapes of the studio's access records as the API and the Security page
 * see them: sign-in methods, signed-in browsers, and the security log.
 */

export const SignInMethodSchema = z.enum(["password", "token", "link", "oidc"]);
export type SignInMethod = z.infer<typeof SignInMethodSchema>;

export const AuditActionSchema = z.enum([
  "sign-in",
  "sign-in-failed",
  "sign-out",
  "sessions-ended",
  "identity-confirmed",
  "mcp-command-confirmed",
  "workflow-privileged-settings",
  "workflow-imported-without-privileges",
  "workflow-published",
  "workflow-unpublished",
  "run-deleted",
  "retention-changed",
  "model-prices-changed",
  "access-refused",
  "profile-changed",
  "password-changed",
  "token-created",
  "token-revoked",
  "person-invited",
  "invitation-revoked",
  "invitation-accepted",
  "person-changed",
  "workflow-shared",
  "audit-exported",
  "approval-decided",
  "approval-escalated",
  "approval-expired",
  "approval-notified",
  "approval-notification-failed",
  "notification-choices-changed",
  "notification-webhook-changed",
  "grant-revoked",
  "approval-viewed",
]);
export type AuditAction = z.infer<typeof AuditActionSchema>;

export const AuditEntrySchema = z.object({
  id: z.string(),
  at: z.string().describe("ISO 8601"),
  actor: z.string(),
  /** The person who did it, when one did (null: before people existed, or no one signed in, e.g. a failed sign-in). */
  actorId: z.string().nullable(),
  action: AuditActionSchema,
  target: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()),
  clientAddress: z.string(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

/** The log's one order: newest first, by id (ids grow with time). */
export const AUDIT_ORDER = { sort: "newest", direction: "desc" } as const;

/** Which entries of the security log: by action, person and dates (GET /api/audit, and its export). */
const AuditFilterSchema = z.object({
  action: AuditActionSchema.optional(),
  /** The person who acted (their id). */
  actorId: z.string().min(1).max(200).optional(),
  /** From this moment on (a day: from its start, UTC). */
  from: ListDateSchema,
  /** Before this moment (a day: up to its end, UTC). */
  to: ListDateSchema,
});

/** What of the security log to read: newest first, filtered, a page at a time, paged as every list is (lib/contracts/list-page.ts). */
export const AuditQuerySchema = AuditFilterSchema.extend({
  limit: ListLimitSchema,
  /** The `nextCursor` of the page before: entries older than it. */
  cursor: ListCursorTextSchema,
}).superRefine((query, context) => checkCursor({ cursor: query.cursor, ...AUDIT_ORDER }, { newest: "text" }, context));
export type AuditQuery = z.infer<typeof AuditQuerySchema>;

export const AuditPageSchema = z.object({ entries: z.array(AuditEntrySchema), nextCursor: z.string().nullable() });
export type AuditPage = z.infer<typeof AuditPageSchema>;

export const AUDIT_EXPORT_FORMATS = ["csv", "jsonl"] as const;
export const AuditExportQuerySchema = AuditFilterSchema.extend({ format: z.enum(AUDIT_EXPORT_FORMATS) });

/** A signed-in browser as listed: never its cookie's secret, only the start of the stored digest. */
export const SessionViewSchema = z.object({
  id: z.string(),
  person: z.string(),
  method: SignInMethodSchema,
  clientAddress: z.string(),
  createdAt: z.string(),
  authenticatedAt: z.string(),
  lastSeenAt: z.string(),
  expiresAt: z.string(),
  current: z.boolean(),
});
export type SessionView = z.infer<typeof SessionViewSchema>;
