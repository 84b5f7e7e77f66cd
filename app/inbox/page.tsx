import type { Metadata } from "next";
import { InboxList } from "@/components/approvals/inbox-list";
import { PageHeader } from "@/components/ui/page-header";
import type { ApprovalForViewer } from "@/lib/contracts/approval";
import { toolTitlesFromTools } from "@/lib/run-view/tool-titles";
import { startStudio } from "@/lib/server/studio";
import { pagePrincipal } from "@/lib/server/access/page-access";
import { listApprovalsFor } from "@/lib/server/access/run-view";
import { forViewer } from "@/lib/server/approval-deciders";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Inbox" };

export default async function InboxPage() {
  const studio = await startStudio();
  const principal = await pagePrincipal();
  const toolTitles = toolTitlesFromTools(studio.pool().all());
  let approvals: ApprovalForViewer[] | null = null;
  let error: string | null = null;
  try {
    approvals = await forViewer(await listApprovalsFor(principal, { status: "pending" }, studio.database), principal, studio.database);
  } catch (caught) {
    error = `The approvals could not be read: ${caught instanceof Error ? caught.message : String(caught)}`;
  }
  return (
    <>
      <PageHeader
        title="Inbox"
        description={
          principal.scopes.has("approval:decide")
            ? "What your runs want to do and are waiting for you to decide. Each decision resumes its run at once."
            : "What runs of the workflows you can see want to do, waiting for a decision. Deciding needs the approval:decide scope, which your role does not include."
        }
      />
      <InboxList initialApprovals={approvals} initialError={error} toolTitles={toolTitles} />
    </>
  );
}
