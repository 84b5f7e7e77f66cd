import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { WorkflowEditor, type EditorAccess } from "@/components/editor/workflow-editor";
import { getWorkflow, NotFoundError, type WorkflowDetail } from "@/lib/persistence";
import { startStudio } from "@/lib/server/studio";
import { catalogEntry } from "@/lib/server/tool-catalog";
import { pageScopesOnWorkflow, pagePrincipal } from "@/lib/server/access/page-access";
import { mayShare } from "@/lib/server/access/workflow-access";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ id: string }> };

/**
 * The workflow, or a 404 for an id that names none (including ids no workflow
 * could have). Cached for the request: the page and its title read it once.
 */
const loadWorkflow = cache(async (id: string): Promise<WorkflowDetail & { access: EditorAccess }> => {
  const { database } = await startStudio();
  if (!/^[A-Za-z0-9_.:-]{1,200}$/.test(id)) notFound();
  const principal = await pagePrincipal();
  // One the viewer may not see is the same 404 as one that does not exist.
  const scopes = await pageScopesOnWorkflow(principal, id, database);
  try {
    const workflow = await getWorkflow(id);
    const access = {
      edit: scopes.has("workflow:edit"),
      run: scopes.has("workflow:run"),
      publish: scopes.has("workflow:publish"),
      share: await mayShare(principal, id, database),
    };
    return { ...workflow, access };
  } catch (error) {
    if (NotFoundError.isInstance(error)) notFound();
    throw error;
  }
});

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const workflow = await loadWorkflow((await params).id);
  return { title: workflow.name };
}

export default async function WorkflowEditorPage({ params }: Props) {
  const workflow = await loadWorkflow((await params).id);
  const studio = await startStudio();
  const tools = studio.pool().all().map(catalogEntry);
  return <WorkflowEditor workflowId={workflow.id} version={workflow.latestVersion} publishedVersion={workflow.publishedVersion} definition={workflow.definition} tools={tools} access={workflow.access} />;
}
