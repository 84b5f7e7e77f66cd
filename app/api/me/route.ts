import { z } from "zod";
import { LOGIN_PATTERN } from "@/lib/contracts/people";
import { findPerson } from "@/lib/persistence/people-store";
import { recordAudit } from "@/lib/persistence/audit-store";
import { ConflictError } from "@/lib/persistence/errors";
import { isUniqueViolation } from "@/lib/persistence/prisma-errors";
import { clientAddress } from "@/lib/server/access/principal";
import { json, readBody, route } from "@/lib/server/http";
import { startStudio } from "@/lib/server/studio";

export const dynamic = "force-dynamic";

/** Who the caller is: their person, role and what this credential may do (the pages hide what it may not). */
export const GET = route("GET /api/me", async (_request, _context, principal) => {
  const { database } = await startStudio();
  const person = await findPerson(principal.personId, database);
  return json({ person, via: principal.via, tokenName: principal.tokenName, scopes: [...principal.scopes] });
});

const ChangeMeBodySchema = z
  .strictObject({
    login: z.string().trim().toLowerCase().regex(LOGIN_PATTERN, "use 2 to 100 letters, digits and . _ @ + - (an e-mail address works)").optional(),
    displayName: z.string().trim().min(1).max(100).optional(),
  })
  .refine((body) => body.login !== undefined || body.displayName !== undefined, { message: "send a login or a displayName", path: ["login"] });

/** Changes the caller's own sign-in name or shown name (the owner's first step after the sign-in link). */
export const PATCH = route("PATCH /api/me", async (request, _context, principal) => {
  const { database } = await startStudio();
  const body = await readBody(request, ChangeMeBodySchema);
  try {
    await database.person.update({ where: { id: principal.personId }, data: body });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ConflictError("person", body.login ?? "", `The sign-in name “${body.login}” is taken; choose another.`);
    throw error;
  }
  await recordAudit({ actor: principal.person, actorId: principal.personId, action: "profile-changed", detail: body, clientAddress: clientAddress(request) }, database);
  return json({ person: await findPerson(principal.personId, database) });
});
