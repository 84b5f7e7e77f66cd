import type { Metadata } from "next";
import { SecurityOverview } from "@/components/security/security-overview";
import { listAudit } from "@/lib/persistence/audit-store";
import { listPeople } from "@/lib/persistence/people-store";
import { listSessions, sessionViews } from "@/lib/persistence/session-store";
import { pagePrincipal } from "@/lib/server/access/page-access";
import { identityProofs } from "@/lib/server/access/sign-in";
import { studioBaseUrl } from "@/lib/server/access/announce";
import { startStudio } from "@/lib/server/studio";

export const metadata: Metadata = { title: "Security" };
export const dynamic = "force-dynamic";

export default async function SecurityPage() {
  await startStudio();
  const principal = await pagePrincipal();
  // The security log is for those who may read it; everyone sees their own browsers.
  const mayReadLog = principal.scopes.has("audit:read");
  const [sessions, firstPage, people, proofs] = await Promise.all([
    listSessions({ id: principal.personId, includeUnowned: principal.firstOwner }),
    mayReadLog ? listAudit({ limit: 100 }) : null,
    mayReadLog ? listPeople() : null,
    identityProofs(principal),
  ]);
  return (
    <SecurityOverview
      sessions={sessionViews(sessions, principal.sessionId)}
      log={firstPage && people ? { firstPage, people: people.map(({ id, displayName }) => ({ id, displayName })) } : null}
      proofs={proofs}
      baseUrl={studioBaseUrl()}
    />
  );
}
