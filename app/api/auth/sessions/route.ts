import { recordAudit } from "@/lib/persistence/audit-store";
import { endOtherSessions, listSessions, sessionViews } from "@/lib/persistence/session-store";
import { json, route } from "@/lib/server/http";
import { clientAddress } from "@/lib/server/access/principal";
import { requireRecentSignIn } from "@/lib/server/access/recent-sign-in";

export const dynamic = "force-dynamic";

/** The caller's signed-in browsers: who, how, from where, last seen; the caller's own is marked. Never the cookie's secret. */
export const GET = route("GET /api/auth/sessions", async (_request, _context, principal) => {
  return json({ sessions: sessionViews(await listSessions({ id: principal.personId, includeUnowned: principal.firstOwner }), principal.sessionId) });
});

/** Signs out every other browser of the caller. */
export const DELETE = route("DELETE /api/auth/sessions", async (request, _context, principal) => {
  requireRecentSignIn(principal, "Signing out every other browser", "would let whoever sits at this one lock you out of the others");
  const ended = await endOtherSessions(principal.sessionId, { id: principal.personId, includeUnowned: principal.firstOwner });
  await recordAudit({ actor: principal.person, actorId: principal.personId, action: "sessions-ended", detail: { ended }, clientAddress: clientAddress(request) });
  return json({ ended });
});
