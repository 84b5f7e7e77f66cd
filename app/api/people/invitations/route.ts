import { InviteBodySchema } from "@/lib/contracts/people";
import { recordAudit } from "@/lib/persistence/audit-store";
import { createInvitation } from "@/lib/persistence/invitation-store";
import { studioBaseUrl } from "@/lib/server/access/announce";
import { clientAddress } from "@/lib/server/access/principal";
import { json, readBody, route } from "@/lib/server/http";
import { requireMayGive } from "@/lib/server/people";
import { startStudio } from "@/lib/server/studio";

export const dynamic = "force-dynamic";

/** Invites someone with a role: a one-time link, in this answer only, that works until it expires. */
export const POST = route("POST /api/people/invitations", async (request, _context, principal) => {
  const { database } = await startStudio();
  const body = await readBody(request, InviteBodySchema);
  requireMayGive(principal, body.role, `Inviting someone as ${body.role}`);
  const { secret, invitation } = await createInvitation({ ...body, invitedBy: principal.person }, database);
  const link = new URL(`/invite/${secret}`, studioBaseUrl()).href;
  await recordAudit({ actor: principal.person, actorId: principal.personId, action: "person-invited", target: invitation.id, detail: { role: body.role, note: body.note, expiresAt: invitation.expiresAt }, clientAddress: clientAddress(request) }, database);
  return json({ invitation, link }, 201);
});
