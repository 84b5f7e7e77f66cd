import { AcceptInvitationBodySchema } from "@/lib/contracts/people";
import { recordAudit } from "@/lib/persistence/audit-store";
import { InvitationUnusable } from "@/lib/persistence/invitation-store";
import { createSession, SESSION_DAYS } from "@/lib/persistence/session-store";
import { clientAddress, sessionCookie } from "@/lib/server/access/principal";
import { HttpError, json, publicRoute, readBody } from "@/lib/server/http";
import { joinWithInvitation } from "@/lib/server/people";
import { startStudio } from "@/lib/server/studio";

export const dynamic = "force-dynamic";

/**
 * Joins with an invitation: the person chooses their sign-in name, shown name
 * and password, and is signed in. The invitation works once; used, expired or
 * withdrawn, it says so (410) and nothing is made.
 */
export const POST = publicRoute(async (request) => {
  const { database } = await startStudio();
  const body = await readBody(request, AcceptInvitationBodySchema);
  let person;
  try {
    person = await joinWithInvitation(body, database);
  } catch (error) {
    if (InvitationUnusable.isInstance(error)) throw new HttpError(error.reason === "unknown" ? 404 : 410, error.message);
    throw error;
  }
  const address = clientAddress(request);
  const { secret } = await createSession({ person: person.displayName, personId: person.id, method: "password", clientAddress: address }, database);
  await recordAudit({ actor: person.displayName, actorId: person.id, action: "invitation-accepted", detail: { role: person.role, login: person.login }, clientAddress: address }, database);
  return json({ person }, 201, { "set-cookie": sessionCookie(secret, SESSION_DAYS * 24 * 3600, request) });
});
