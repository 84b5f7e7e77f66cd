import { CreateTokenBodySchema } from "@/lib/contracts/people";
import { recordAudit } from "@/lib/persistence/audit-store";
import { ConflictError } from "@/lib/persistence/errors";
import { createPersonalToken, listPersonalTokens } from "@/lib/persistence/personal-token-store";
import { isUniqueViolation } from "@/lib/persistence/prisma-errors";
import { clientAddress } from "@/lib/server/access/principal";
import { HttpError, json, readBody, route } from "@/lib/server/http";
import { fieldProblem } from "@/lib/server/people";
import { startStudio } from "@/lib/server/studio";

export const dynamic = "force-dynamic";

/** The caller's personal access tokens: names, scopes, dates; never a token itself. */
export const GET = route("GET /api/me/tokens", async (_request, _context, principal) => {
  const { database } = await startStudio();
  return json({ tokens: await listPersonalTokens(principal.personId, database) });
});

/** Makes a personal access token with scopes the caller holds; the token is in this answer only. */
export const POST = route("POST /api/me/tokens", async (request, _context, principal) => {
  const { database } = await startStudio();
  if (principal.via === "personal-token") throw new HttpError(403, "Make tokens while signed in, not with another token.");
  const body = await readBody(request, CreateTokenBodySchema);
  const beyond = body.scopes.filter((scope) => !principal.scopes.has(scope));
  if (beyond.length > 0) throw fieldProblem("scopes", `your role does not hold ${beyond.join(", ")}; a token carries only scopes you have`);
  const expiresAt = body.expiresInDays === null ? null : new Date(Date.now() + body.expiresInDays * 24 * 3600_000);
  try {
    const { token, record } = await createPersonalToken({ personId: principal.personId, name: body.name, scopes: [...new Set(body.scopes)], expiresAt }, database);
    await recordAudit({ actor: principal.person, actorId: principal.personId, action: "token-created", target: record.id, detail: { name: record.name, scopes: record.scopes, expiresAt: record.expiresAt }, clientAddress: clientAddress(request) }, database);
    return json({ token, record }, 201);
  } catch (error) {
    if (isUniqueViolation(error)) throw new ConflictError("token", body.name, `You have a token named “${body.name}” already; choose another name or revoke that one.`);
    throw error;
  }
});
