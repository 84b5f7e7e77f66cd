import type { Metadata } from "next";
import { SecurityOverview } from "@/components/security/security-overview";
import { listAudit } from "@/lib/persistence/audit-store";
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
  const [sessions, entries, proofs] = await Promise.all([
    listSessions({ id: principal.personId, includeUnowned: principal.firstOwner }),
    principal.scopes.has("audit:read") ? listAudit({ limit: 200 }) : Promise.resolve(null),
    identityProofs(principal),
  ]);
  return (
    <SecurityOverview
      sessions={sessionViews(sessions, principal.sessionId)}
      entries={entries}
      proofs={proofs}
      baseUrl={studioBaseUrl()}
    />
  );
}
