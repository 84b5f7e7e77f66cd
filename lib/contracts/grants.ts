import { z } from "zod";

/**
 * "Always allow": a person's answer to a write that lets later writes in the
 * same folder of the same workflow go ahead without asking. A grant lasts the
 * days its policy says (ALWAYS_ALLOW_DEFAULT_DAYS unless set), is listed on
 * the workflow with who gave it and when it runs out, and can be revoked
 * there. Only a policy that one person decides can give one: a grant under
 * "two people must approve" would let the next write skip both.
 */

export const ALWAYS_ALLOW_DEFAULT_DAYS = 30;
export const ALWAYS_ALLOW_MAX_DAYS = 365;

export const AlwaysAllowDaysSchema = z
  .number()
  .int("whole days")
  .min(1, "at least 1 day")
  .max(ALWAYS_ALLOW_MAX_DAYS, `at most ${ALWAYS_ALLOW_MAX_DAYS} days`);

/** A grant as GET /api/workflows/{id}/grants lists it. */
export const WriteGrantRecordSchema = z.object({
  id: z.string(),
  /** The folder the writes' paths are relative to (the step's root). */
  root: z.string(),
  /** Which writes it allows, relative to `root` (`reports/**`). */
  pattern: z.string(),
  /** Who gave it, as shown; null for grants from before this was recorded. */
  createdBy: z.string().nullable(),
  createdById: z.string().nullable(),
  /** The run whose approval gave it; null for grants from before this was recorded. */
  runId: z.string().nullable(),
  createdAt: z.string(),
  /** When it stops allowing; null: never (a grant from before grants ran out). */
  expiresAt: z.string().nullable(),
});
export type WriteGrantRecord = z.infer<typeof WriteGrantRecordSchema>;

/** When a grant given at `givenAt` under a policy of `days` (unset: the default) runs out. */
export function grantExpiry(givenAt: Date, days: number | undefined): Date {
  return new Date(givenAt.getTime() + (days ?? ALWAYS_ALLOW_DEFAULT_DAYS) * 24 * 60 * 60_000);
}

/** Whether a grant still allows at `now`. */
export function grantInForce(grant: { expiresAt: string | null }, now: Date = new Date()): boolean {
  return grant.expiresAt === null || Date.parse(grant.expiresAt) > now.getTime();
}
