import { z } from "zod";

/**
 * The shapes of the studio's access records as the API and the Security page
 * see them: sign-in methods, signed-in browsers, and the security log.
 */

export const SignInMethodSchema = z.enum(["password", "token", "link"]);
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
]);
export type AuditAction = z.infer<typeof AuditActionSchema>;

export const AuditEntrySchema = z.object({
  id: z.string(),
  at: z.string().describe("ISO 8601"),
  actor: z.string(),
  action: AuditActionSchema,
  target: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()),
  clientAddress: z.string(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

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
