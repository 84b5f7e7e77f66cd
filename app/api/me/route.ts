import { ChangeMeBodySchema, type MeView, type PersonView } from "@/lib/contracts/people";
import { findPerson, type PersonRecord } from "@/lib/persistence/people-store";
import { recordAudit } from "@/lib/persistence/audit-store";
import { ConflictError } from "@/lib/persistence/errors";
import { isUniqueViolation } from "@/lib/persistence/prisma-errors";
import { clientAddress } from "@/lib/server/access/principal";
import { HttpError, json, readBody, route } from "@/lib/server/http";
import { startStudio } from "@/lib/server/studio";

export const dynamic = "force-dynamic";

/** The person as the contract shows them: who invited them stays on the People page's side. */
function personView(person: PersonRecord | null): PersonView {
  if (!person) throw new HttpError(404, "Your person record is gone; sign in again.");
  const { createdBy: _createdBy, ...view } = person;
  return view;
}

/** Who the caller is: their person, role and what this credential may do (the pages hide what it may not). */
export const GET = route("GET /api/me", async (_request, _context, principal) => {
  const { database } = await startStudio();
  const me: MeView = { person: personView(await findPerson(principal.personId, database)), via: principal.via, tokenName: principal.tokenName, scopes: [...principal.scopes] };
  return json(me);
});

/**
 * Changes the caller's own sign-in name or shown name (the owner's first step
 * after the sign-in link). Their sessions take the new name with it, so the
 * header and the list of signed-in browsers say it from the next page on.
 */
export const PATCH = route("PATCH /api/me", async (request, _context, principal) => {
  const { database } = await startStudio();
  const body = await readBody(request, ChangeMeBodySchema);
  try {
    await database.$transaction([
      database.person.update({ where: { id: principal.personId }, data: body }),
      ...(body.displayName === undefined ? [] : [database.studioSession.updateMany({ where: { personId: principal.personId }, data: { person: body.displayName } })]),
    ]);
  } catch (error) {
    if (isUniqueViolation(error)) throw new ConflictError("person", body.login ?? "", `The sign-in name “${body.login}” is taken; choose another.`);
    throw error;
  }
  await recordAudit({ actor: principal.person, actorId: principal.personId, action: "profile-changed", detail: body, clientAddress: clientAddress(request) }, database);
  return json({ person: personView(await findPerson(principal.personId, database)) });
});
