import type { Metadata } from "next";
import { WorkflowList } from "@/components/workflow-list/workflow-list";
import { toListItem } from "@/components/workflow-list/workflow-list-item";
import { listWorkflows } from "@/lib/persistence";
import { startStudio } from "@/lib/server/studio";

export const metadata: Metadata = { title: "Workflows" };
export const dynamic = "force-dynamic";

export default async function WorkflowsPage() {
  await startStudio();
  const workflows = await listWorkflows();
  return <WorkflowList initialWorkflows={workflows.map(toListItem)} />;
}
