import { listApprovalsFor } from "@/lib/server/access/run-view";
import { forViewer } from "@/lib/server/approval-deciders";
import { sseResponse } from "@/lib/server/event-stream";
import { visibleWorkflows } from "@/lib/server/access/workflow-access";
import { route } from "@/lib/server/http";
import { startStudio } from "@/lib/server/studio";
import type { RunEvent } from "@/lib/workflow/run-types";

export const dynamic = "force-dynamic";

/** The events that change what lists show: the inbox count, run statuses. */
const INTERESTING = new Set<RunEvent["type"]>([
  "approval-requested",
  // One of several approvals an approval needs: other people's inboxes show it counted.
  "approval-voted",
  // Its deadline passed it to other people: theirs now (the badge, the browser's notification).
  "approval-escalated",
  "approval-decided",
  "run-started",
  "run-resumed",
  "run-awaiting-input",
  "run-succeeded",
  "run-failed",
  "run-cancelled",
]);

const VISIBILITY_TTL_MS = 5_000;
/** The most waiting approvals the badge counts (it then says 1000). */
const MAX_COUNTED = 1000;
/** Runs whose answer a feed keeps at once: past it, the feed starts again (a busy studio has thousands of runs a day). */
const MAX_KNOWN_RUNS = 1_000;

/**
 * A live feed across runs for the navigation's inbox count and the run list:
 * first `pending-approvals` with the current count, then every change as
 * `{ type, runId, nodeId, pendingApprovals }`. Clients refetch what they show
 * on each message; nothing here needs replaying. The count is of the
 * approvals waiting for the caller (as the inbox's "for me": their scope on
 * the workflow, then each approval's policy): a viewer, or the person who
 * started a run that others must approve, is shown runs changing, not a
 * number of things they cannot answer.
 */
export const GET = route("GET /api/events", async (request, _context, principal) => {
  const studio = await startStudio();
  // Only what the caller may see: runs of their workflows, and the approvals waiting on those. A run's answer is kept for
  // VISIBILITY_TTL_MS (a run sends several events in a burst, to every open feed), so a share given or taken away counts
  // within that.
  const visible = visibleWorkflows(principal);
  const known = new Map<string, { visible: boolean; at: number }>();
  const concerns = async (runId: string) => {
    if (visible === null) return true;
    const kept = known.get(runId);
    if (kept && Date.now() - kept.at < VISIBILITY_TTL_MS) return kept.visible;
    const answer = (await studio.database.run.count({ where: { id: runId, workflow: visible } })) > 0;
    if (known.size >= MAX_KNOWN_RUNS) known.clear();
    known.set(runId, { visible: answer, at: Date.now() });
    return answer;
  };
  // Counted again when an approval's event comes (or the count is older than the visibility's lifetime, for shares and
  // roles that changed); a burst of other events reuses it.
  let counted: { value: number; at: number } | null = null;
  const pendingApprovals = async (type: RunEvent["type"] | null) => {
    if (counted && !type?.startsWith("approval-") && Date.now() - counted.at < VISIBILITY_TTL_MS) return counted.value;
    const waiting = await forViewer(await listApprovalsFor(principal, { status: "pending", limit: MAX_COUNTED }, studio.database), principal, studio.database);
    counted = { value: waiting.filter((approval) => approval.viewer.mayDecide).length, at: Date.now() };
    return counted.value;
  };
  return sseResponse(request.signal, async (channel) => {
    channel.onClose(
      studio.bus.subscribeAll((event) => {
        if (!INTERESTING.has(event.type)) return;
        void (async () => {
          if (!(await concerns(event.runId))) return;
          channel.send("change", { type: event.type, runId: event.runId, nodeId: event.nodeId, pendingApprovals: await pendingApprovals(event.type) });
        })().catch((error: unknown) => console.error("[studio] the live feed could not send a change", error));
      }),
    );
    channel.send("pending-approvals", { pendingApprovals: await pendingApprovals(null) });
  });
});
