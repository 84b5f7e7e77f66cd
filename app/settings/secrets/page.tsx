import type { Metadata } from "next";
import { SecretList } from "@/components/secrets/secret-list";
import { toSecretRow, type SecretTool } from "@/components/secrets/secret-types";
import { everyWorkflow } from "@/lib/persistence";
import { secretsFor } from "@/lib/server/access/secret-view";
import { visibleWorkflows } from "@/lib/server/access/workflow-access";
import { startStudio } from "@/lib/server/studio";
import { catalogEntry } from "@/lib/server/tool-catalog";
import { NoAccess } from "@/components/ui/no-access";
import { pagePrincipal } from "@/lib/server/access/page-access";

export const metadata: Metadata = { title: "Secrets" };
export const dynamic = "force-dynamic";

export default async function SecretsPage() {
  const studio = await startStudio();
  const principal = await pagePrincipal();
  if (!principal.scopes.has("secret:use")) return <NoAccess title="Secrets" scope="secret:use" role={principal.role} />;
  const [secrets, workflows] = await Promise.all([secretsFor(principal, studio.database), everyWorkflow(studio.database, visibleWorkflows(principal))]);
  const tools = studio.pool().all().map(catalogEntry);
  const secretTools: SecretTool[] = tools
    .filter((tool) => tool.secretInputs.length > 0)
    .map((tool) => ({ name: tool.name, title: tool.title, credentialHelp: tool.secretInputs[0]?.credentialHelp ?? "" }))
    .sort((a, b) => a.title.localeCompare(b.title));
  const toolTitles = Object.fromEntries(tools.map((tool) => [tool.name, tool.title]));
  const choices = workflows.map(({ id, name }) => ({ id, name })).sort((a, b) => a.name.localeCompare(b.name));
  return <SecretList initialSecrets={secrets.map(toSecretRow)} secretTools={secretTools} toolTitles={toolTitles} workflows={choices} mayManage={principal.scopes.has("secret:manage")} />;
}
