import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { WorkflowCrumbs } from "@/components/workflows/workflow-crumbs";
import { EvaluationsView } from "@/components/evaluations/evaluations-view";
import { listDatasets } from "@/lib/persistence/dataset-store";
import { listEvaluations } from "@/lib/persistence/evaluation-store";
import { pagePrincipal, pageScopesOnWorkflow } from "@/lib/server/access/page-access";
import { startStudio } from "@/lib/server/studio";

export const metadata: Metadata = { title: "Evaluations" };
export const dynamic = "force-dynamic";

type Props = { params: Promise<{ id: string }> };

/** A workflow's evaluations; one the viewer may not read the runs of is a 404, as one that does not exist. */
export default async function EvaluationsPage({ params }: Props) {
  const { id } = await params;
  if (!/^[A-Za-z0-9_.:-]{1,200}$/.test(id)) notFound();
  const { database } = await startStudio();
  const scopes = await pageScopesOnWorkflow(await pagePrincipal(), id, database, "run:read");
  const workflow = await database.workflow.findUnique({ where: { id }, select: { name: true, latestVersion: true } });
  if (!workflow) notFound();
  const [datasets, evaluations] = await Promise.all([listDatasets(id, database), listEvaluations(id, database)]);
  const versions = Array.from({ length: workflow.latestVersion }, (_, index) => workflow.latestVersion - index);
  return (
    <>
      <WorkflowCrumbs workflow={{ id, name: workflow.name }} section="evaluations" />
      <EvaluationsView workflow={{ id, name: workflow.name }} versions={versions} datasets={datasets} initial={evaluations} canStart={scopes.has("workflow:run")} />
    </>
  );
}
