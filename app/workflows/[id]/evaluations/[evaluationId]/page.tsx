import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { WorkflowCrumbs } from "@/components/workflows/workflow-crumbs";
import { EvaluationView } from "@/components/evaluations/evaluation-view";
import { NotFoundError } from "@/lib/persistence";
import { getEvaluation } from "@/lib/persistence/evaluation-store";
import { pagePrincipal, pageScopesOnWorkflow } from "@/lib/server/access/page-access";
import { startStudio } from "@/lib/server/studio";

export const metadata: Metadata = { title: "Evaluation" };
export const dynamic = "force-dynamic";

type Props = { params: Promise<{ id: string; evaluationId: string }> };

const ID = /^[A-Za-z0-9_.:-]{1,200}$/;

/** One evaluation's averages and rows; as its workflow's runs, a 404 to who may not read them. */
export default async function EvaluationPage({ params }: Props) {
  const { id, evaluationId } = await params;
  if (!ID.test(id) || !ID.test(evaluationId)) notFound();
  const { database } = await startStudio();
  const scopes = await pageScopesOnWorkflow(await pagePrincipal(), id, database, "run:read");
  const workflow = await database.workflow.findUnique({ where: { id }, select: { name: true } });
  if (!workflow) notFound();
  const evaluation = await getEvaluation(id, evaluationId, database).catch((error: unknown) => {
    if (NotFoundError.isInstance(error)) notFound();
    throw error;
  });
  return (
    <>
      <WorkflowCrumbs workflow={{ id, name: workflow.name }} section="evaluations" here={`version ${evaluation.version} on ${evaluation.datasetName}`} />
      <EvaluationView initial={evaluation} canCancel={scopes.has("run:cancel")} />
    </>
  );
}
