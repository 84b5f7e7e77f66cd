import type { Metadata } from "next";
import { headers } from "next/headers";
import { SecurityOverview } from "@/components/security/security-overview";
import { listAudit } from "@/lib/persistence/audit-store";
import { listSessions, sessionViews } from "@/lib/persistence/session-store";
import { authenticate, studioPassword } from "@/lib/server/access/principal";
import { studioBaseUrl } from "@/lib/server/access/announce";
import { startStudio } from "@/lib/server/studio";

export const metadata: Metadata = { title: "Security" };
export const dynamic = "force-dynamic";

export default async function SecurityPage() {
  await startStudio();
  const principal = await authenticate({ headers: await headers() });
  const [sessions, entries] = await Promise.all([listSessions(), listAudit({ limit: 200 })]);
  return (
    <SecurityOverview
      sessions={sessionViews(sessions, principal?.sessionId ?? null)}
      entries={entries}
      hasPassword={studioPassword() !== null}
      baseUrl={studioBaseUrl()}
    />
  );
}
