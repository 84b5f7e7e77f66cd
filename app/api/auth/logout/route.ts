import { recordAudit } from "@/lib/persistence/audit-store";
import { endSession } from "@/lib/persistence/session-store";
import { json, publicRoute } from "@/lib/server/http";
import { authenticate, CLEARED_SESSION_COOKIE, clientAddress } from "@/lib/server/access/principal";

export const dynamic = "force-dynamic";

/** Ends the session on the server (its cookie stops working everywhere at once) and clears the cookie. */
export const POST = publicRoute(async (request) => {
  const principal = await authenticate(request);
  if (principal?.sessionId) {
    await endSession(principal.sessionId);
    await recordAudit({ actor: principal.person, actorId: principal.personId, action: "sign-out", clientAddress: clientAddress(request) });
  }
  return json({ signedOut: true }, 200, { "set-cookie": CLEARED_SESSION_COOKIE });
});
