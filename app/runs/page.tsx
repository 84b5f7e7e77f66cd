import type { Metadata } from "next";
import { RunList } from "@/components/runs/run-list";
import { PageHeader } from "@/components/ui/page-header";
import { listRuns, type RunSummary } from "@/lib/persistence/run-queries";
import { statusFilterFrom } from "@/lib/run-view/run-status-filters";
import { startStudio } from "@/lib/server/studio";
import { RunTriggerKindSchema } from "@/lib/contracts/run-trigger";
import { pagePrincipal } from "@/lib/server/access/page-access";
import { visibleWorkflows } from "@/lib/server/access/workflow-access";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Runs" };

export default async function RunsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const status = statusFilterFrom(params.status);
  const parsedTrigger = RunTriggerKindSchema.safeParse(params.trigger);
  const trigger = parsedTrigger.success ? parsedTrigger.data : null;
  let runs: RunSummary[] | null = null;
  let error: string | null = null;
  try {
    const studio = await startStudio();
    const principal = await pagePrincipal();
    runs = await listRuns({ ...(status === "all" ? {} : { status }), ...(trigger ? { trigger } : {}), workflows: visibleWorkflows(principal) }, studio.database);
  } catch (caught) {
    error = `The runs could not be read: ${caught instanceof Error ? caught.message : String(caught)}`;
  }
  return (
    <>
      <PageHeader title="Runs" description="Every run of every workflow, newest first. Statuses, durations and approvals update live." />
      <RunList key={`${status}:${trigger}`} initialRuns={runs} initialError={error} initialStatus={status} initialTrigger={trigger} />
    </>
  );
}
