import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { DatasetsView } from "@/components/evaluations/datasets-view";
import { getWorkflow, NotFoundError } from "@/lib/persistence";
import { listDatasets } from "@/lib/persistence/dataset-store";
import { listRuns } from "@/lib/persistence/run-list";
import { pagePrincipal, pageScopesOnWorkflow } from "@/lib/server/access/page-access";
import { startStudio } from "@/lib/server/studio";
import { inputFieldsOf } from "@/lib/workflow/run-inputs";

export const metadata: Metadata = { title: "Datasets" };
export const dynamic = "force-dynamic";

type Props = { params: Promise<{ id: string }> };

/** A workflow's evaluation datasets; a workflow the viewer may not see is a 404, as one that does not exist. */
export default async function DatasetsPage({ params }: Props) {
  const { id } = await params;
  if (!/^[A-Za-z0-9_.:-]{1,200}$/.test(id)) notFound();
  const { database } = await startStudio();
  const scopes = await pageScopesOnWorkflow(await pagePrincipal(), id, database);
  const workflow = await getWorkflow(id, database).catch((error: unknown) => {
    if (NotFoundError.isInstance(error)) notFound();
    throw error;
  });
  const canEdit = scopes.has("workflow:edit");
  const [datasets, runs] = await Promise.all([
    listDatasets(id, database),
    // The runs to pick from: only for who may read them, and edit the workflow (making a dataset is building it).
    canEdit && scopes.has("run:read") ? listRuns({ workflowId: id, limit: 50 }, null, database).then((page) => page.items) : [],
  ]);
  return (
    <DatasetsView
      workflow={{ id, name: workflow.name, inputNames: inputFieldsOf(workflow.definition).map((field) => field.name) }}
      initial={datasets}
      runs={runs}
      canEdit={canEdit}
    />
  );
}
