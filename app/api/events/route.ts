import { countPendingApprovals } from "@/lib/persistence/run-queries";
import { sseResponse } from "@/lib/server/event-stream";
import { route } from "@/lib/server/http";
import { startStudio } from "@/lib/server/studio";
import type { RunEvent } from "@/lib/workflow/run-types";

export const dynamic = "force-dynamic";

/** The events that change what lists show: the inbox count, run statuses. */
const INTERESTING = new Set<RunEvent["type"]>([
  "approval-requested",
  "approval-decided",
  "run-started",
  "run-resumed",
  "run-awaiting-input",
  "run-succeeded",
  "run-failed",
  "run-cancelled",
]);


/**
 * A live feed across runs for the navigation's inbox count and the run list:
 * first `pending-approvals` with the current count, then every change as
 * `{ type, runId, nodeId, pendingApprovals }`. Clients refetch what they show
 * on each message; nothing here needs replaying.
 */
export const GET = route(async (request) => {
  const studio = await startStudio();
  return sseResponse(request.signal, async (channel) => {
    channel.onClose(
      studio.bus.subscribeAll((event) => {
        if (!INTERESTING.has(event.type)) return;
        void countPendingApprovals(studio.database).then((pendingApprovals) =>
          channel.send("change", { type: event.type, runId: event.runId, nodeId: event.nodeId, pendingApprovals }),
        );
      }),
    );
    channel.send("pending-approvals", { pendingApprovals: await countPendingApprovals(studio.database) });
  });
});
