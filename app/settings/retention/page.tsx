import type { Metadata } from "next";
import { RetentionSettings } from "@/components/settings/retention-settings";
import { retentionOverview } from "@/lib/server/retention-settings";
import { startStudio } from "@/lib/server/studio";
import { NoAccess } from "@/components/ui/no-access";
import { pagePrincipal } from "@/lib/server/access/page-access";

export const metadata: Metadata = { title: "Data retention" };
export const dynamic = "force-dynamic";

export default async function RetentionPage() {
  const { database } = await startStudio();
  const principal = await pagePrincipal();
  if (!principal.scopes.has("settings:manage")) return <NoAccess title="Data retention" scope="settings:manage" role={principal.role} />;
  const [overview, workflows] = await Promise.all([
    retentionOverview(),
    database.workflow.findMany({ select: { id: true, name: true }, orderBy: { name: "asc" } }),
  ]);
  return <RetentionSettings initial={overview} workflows={workflows} />;
}
