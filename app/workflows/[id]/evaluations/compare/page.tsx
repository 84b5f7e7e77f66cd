import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { WorkflowCrumbs } from "@/components/workflows/workflow-crumbs";
import { EvaluationComparison } from "@/components/evaluations/evaluation-comparison";
import { NotFoundError } from "@/lib/persistence";
import { getEvaluation } from "@/lib/persistence/evaluation-store";
import { pagePrincipal, pageScopesOnWorkflow } from "@/lib/server/access/page-access";
import { startStudio } from "@/lib/server/studio";

export const metadata: Metadata = { title: "Comparison" };
export const dynamic = "force-dynamic";

type Props = { params: Promise<{ id: string }>; searchParams: Promise<{ a?: string | string[]; b?: string | string[] }> };

const ID = /^[A-Za-z0-9_.:-]{1,200}$/;

/** Two evaluations of a workflow side by side (`?a=…&b=…`); either unknown, or the runs unreadable, is a 404. */
export default async function ComparisonPage({ params, searchParams }: Props) {
  const { id } = await params;
  const { a, b } = await searchParams;
  if (!ID.test(id) || typeof a !== "string" || typeof b !== "string" || !ID.test(a) || !ID.test(b)) notFound();
  const { database } = await startStudio();
  await pageScopesOnWorkflow(await pagePrincipal(), id, database, "run:read");
  const workflow = await database.workflow.findUnique({ where: { id }, select: { name: true } });
  if (!workflow) notFound();
  const [first, second] = await Promise.all([getEvaluation(id, a, database), getEvaluation(id, b, database)]).catch((error: unknown) => {
    if (NotFoundError.isInstance(error)) notFound();
    throw error;
  });
  return (
    <>
      <WorkflowCrumbs workflow={{ id, name: workflow.name }} section="evaluations" here="comparison" />
      <EvaluationComparison a={first} b={second} />
    </>
  );
}
