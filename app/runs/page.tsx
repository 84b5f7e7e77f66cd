import type { Metadata } from "next";
import { RunList } from "@/components/runs/run-list";
import { PageHeader } from "@/components/ui/page-header";
import { readListParams, type ListResult } from "@/lib/contracts/list-page";
import { RunListQuerySchema } from "@/lib/contracts/run-list";
import type { UsageSummary } from "@/lib/contracts/usage";
import { listRuns, type RunSummary } from "@/lib/persistence/run-queries";
import { startStudio } from "@/lib/server/studio";
import { pagePrincipal } from "@/lib/server/access/page-access";
import { visibleWorkflows, workflowIdsWith } from "@/lib/server/access/workflow-access";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Runs" };

/** A page of the runs of the workflows the person may see, as the address asks (filters, search, order, cursor). */
export default async function RunsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { query } = readListParams(RunListQuerySchema, await searchParams);
  let listed: (ListResult<RunSummary> & { usage: UsageSummary }) | null = null;
  let cancelable: Set<string> | null = new Set();
  let mayCancel = false;
  let error: string | null = null;
  try {
    const studio = await startStudio();
    const principal = await pagePrincipal();
    listed = await listRuns(query, visibleWorkflows(principal), studio.database);
    mayCancel = principal.scopes.has("run:cancel");
    cancelable = await workflowIdsWith(principal, "run:cancel", studio.database);
  } catch (caught) {
    error = `The runs could not be read: ${caught instanceof Error ? caught.message : String(caught)}`;
  }
  return (
    <>
      <PageHeader
        title="Runs"
        description={`Every run of every workflow you can see. Search, filter and page through them; statuses, durations and approvals update live.${
          mayCancel ? "" : " Cancelling and deleting runs needs the run:cancel scope, which your role does not include."
        }`}
      />
      <RunList
        key={JSON.stringify(query)}
        initialRuns={listed?.items ?? null}
        initialPage={listed?.page ?? null}
        initialUsage={listed?.usage ?? null}
        initialError={error}
        query={query}
        cancelableWorkflows={cancelable === null ? null : [...cancelable]}
      />
    </>
  );
}
