import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { WorkflowActivityView } from "@/components/activity/workflow-activity-view";
import { PageHeader } from "@/components/ui/page-header";
import { WorkflowCrumbs } from "@/components/workflows/workflow-crumbs";
import { DEFAULT_ACTIVITY_DAYS } from "@/lib/contracts/workflow-activity";
import { workflowActivity } from "@/lib/persistence/workflow-activity";
import { pagePrincipal, pageScopesOnWorkflow } from "@/lib/server/access/page-access";
import { startStudio } from "@/lib/server/studio";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Activity" };

/** A workflow's last 30 days: runs and failures, median duration and cost per day, as charts and as a table. */
export default async function WorkflowActivityPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!/^[A-Za-z0-9_.:-]{1,200}$/.test(id)) notFound();
  const { database } = await startStudio();
  // Not seen, or seen without run:read: the same 404 as a workflow that does not exist.
  await pageScopesOnWorkflow(await pagePrincipal(), id, database, "run:read");
  const workflow = await database.workflow.findUnique({ where: { id }, select: { name: true } });
  if (!workflow) notFound();
  const activity = await workflowActivity(id, DEFAULT_ACTIVITY_DAYS, database);
  return (
    <>
      <WorkflowCrumbs workflow={{ id, name: workflow.name }} section="activity" />
      <PageHeader
        title={`${workflow.name}: the last ${DEFAULT_ACTIVITY_DAYS} days`}
        description="Runs per day and how they ended, how long the finished ones took (median), and what their model calls cost at today's prices. Days are UTC."
        actions={
          <>
            <Link href={`/runs?workflowId=${encodeURIComponent(id)}`} className="text-sm font-medium text-accent underline-offset-4 hover:underline">
              See its runs
            </Link>
            <Link href={`/workflows/${encodeURIComponent(id)}/datasets`} className="text-sm font-medium text-accent underline-offset-4 hover:underline">
              Datasets
            </Link>
            <Link href={`/workflows/${encodeURIComponent(id)}/evaluations`} className="text-sm font-medium text-accent underline-offset-4 hover:underline">
              Evaluations
            </Link>
          </>
        }
      />
      <WorkflowActivityView activity={activity} />
    </>
  );
}
