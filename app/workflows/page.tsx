import type { Metadata } from "next";
import { WorkflowList } from "@/components/workflow-list/workflow-list";
import { toListItem } from "@/components/workflow-list/workflow-list-item";
import { listWorkflows } from "@/lib/persistence";
import { startStudio } from "@/lib/server/studio";
import { pagePrincipal } from "@/lib/server/access/page-access";
import { visibleWorkflows } from "@/lib/server/access/workflow-access";

export const metadata: Metadata = { title: "Workflows" };
export const dynamic = "force-dynamic";

export default async function WorkflowsPage() {
  const { database } = await startStudio();
  const principal = await pagePrincipal();
  const workflows = await listWorkflows(database, visibleWorkflows(principal));
  return <WorkflowList initialWorkflows={workflows.map(toListItem)} />;
}
