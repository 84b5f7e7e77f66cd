import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { RunView } from "@/components/runs/run-view";
import { NotFoundError } from "@/lib/persistence";
import { getRunDetail, readEvents, type RunDetail } from "@/lib/persistence/run-queries";
import { TIMELINE_LIMIT } from "@/lib/run-view/apply-event";
import { toolTitlesFromTools } from "@/lib/run-view/tool-titles";
import { startStudio } from "@/lib/server/studio";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ id: string }> };

async function loadRun(id: string): Promise<RunDetail> {
  const studio = await startStudio();
  try {
    return await getRunDetail(id, studio.database);
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    throw error;
  }
}

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { id } = await params;
  try {
    const studio = await startStudio();
    const run = await getRunDetail(id, studio.database);
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
  const history = await readEvents(id, Math.max(0, run.lastSeq - TIMELINE_LIMIT), TIMELINE_LIMIT, studio.database);
  const toolTitles = toolTitlesFromTools(studio.pool().all());
  return <RunView key={run.id} run={run} history={history} toolTitles={toolTitles} />;
}
