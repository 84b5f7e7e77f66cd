import type { Metadata } from "next";
import { WorkflowList } from "@/components/workflow-list/workflow-list";
import { toListItem } from "@/components/workflow-list/workflow-list-item";
import { readListParams } from "@/lib/contracts/list-page";
import { WorkflowListQuerySchema } from "@/lib/contracts/workflow-list";
import { listWorkflows } from "@/lib/persistence";
import { startStudio } from "@/lib/server/studio";
import { pagePrincipal } from "@/lib/server/access/page-access";
import { visibleWorkflows } from "@/lib/server/access/workflow-access";

export const metadata: Metadata = { title: "Workflows" };
export const dynamic = "force-dynamic";

/** A page of the workflows the person may see, as the address asks (search, order, cursor). */
export default async function WorkflowsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { query } = readListParams(WorkflowListQuerySchema, await searchParams);
  const { database } = await startStudio();
  const principal = await pagePrincipal();
  const { items, page } = await listWorkflows(query, visibleWorkflows(principal), database);
  const key = JSON.stringify(query);
  return <WorkflowList key={key} initialWorkflows={items.map(toListItem)} initialPage={page} query={query} mayEdit={principal.scopes.has("workflow:edit")} />;
}
