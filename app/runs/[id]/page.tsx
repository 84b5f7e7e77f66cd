import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { RunView, type RunAccess } from "@/components/runs/run-view";
import { NotFoundError } from "@/lib/persistence";
import { getRunDetail, readEvents, type RunDetail } from "@/lib/persistence/run-queries";
import { TIMELINE_LIMIT } from "@/lib/run-view/apply-event";
import { isBigRun, withoutEventOutputs, withoutStepResults } from "@/lib/run-view/light-snapshot";
import { toolTitlesFromTools } from "@/lib/run-view/tool-titles";
import { startStudio } from "@/lib/server/studio";
import { pageScopesOnWorkflow, pagePrincipal } from "@/lib/server/access/page-access";
import { eventRedaction, runAsSeenBy } from "@/lib/server/access/run-view";

export const dynamic = "force-dynamic";


type Params = { params: Promise<{ id: string }> };

/**
 * The run as the viewer may see it and what they may do on it, or the 404
 * page for one that does not exist or whose workflow they may not see.
 * Cached for the request: a big run is read once for the page and its title.
 */
const loadRun = cache(async (id: string): Promise<RunDetail & { access: RunAccess }> => {
  const studio = await startStudio();
  const principal = await pagePrincipal();
  let run: RunDetail;
  try {
    run = await getRunDetail(id, studio.database);
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    throw error;
  }
  const scopes = await pageScopesOnWorkflow(principal, run.workflowId, studio.database, "run:read");
  const access = { cancel: scopes.has("run:cancel"), run: scopes.has("workflow:run"), edit: scopes.has("workflow:edit"), decide: scopes.has("approval:decide") };
  return { ...(await runAsSeenBy(principal, run, studio.database)), access };
});

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { id } = await params;
  try {
    const run = await loadRun(id);
    return { title: `Run of ${run.workflowName}` };
  } catch {
    return { title: "Run" };
  }
}

export default async function RunPage({ params }: Params) {
  const { id } = await params;
  const studio = await startStudio();
  const run = await loadRun(id);
  // The timeline's history up to the snapshot; the stream continues after run.lastSeq.
  const events = await readEvents(id, Math.max(0, run.lastSeq - TIMELINE_LIMIT), TIMELINE_LIMIT, studio.database);
  const redaction = await eventRedaction(await pagePrincipal(), studio.database);
  const history = redaction ? events.map(redaction.live) : events;
  const toolTitles = toolTitlesFromTools(studio.pool().all());
  // A big run's page leaves its steps' results out (lib/run-view/light-snapshot.ts); its panel fetches them.
  const light = isBigRun(run);
  return (
    <RunView
      key={run.id}
      run={light ? withoutStepResults(run) : run}
      history={light ? withoutEventOutputs(history) : history}
      toolTitles={toolTitles}
      access={run.access}
      outputsLeftOut={light}
    />
  );
}
