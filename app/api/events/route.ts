import { countPendingApprovals } from "@/lib/persistence/run-queries";
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

const encoder = new TextEncoder();

/**
 * A live feed across runs for the navigation's inbox count and the run list:
 * first `pending-approvals` with the current count, then every change as
 * `{ type, runId, nodeId, pendingApprovals }`. Clients refetch what they show
 * on each message; nothing here needs replaying.
 */
export const GET = route(async (request) => {
  const studio = await startStudio();
  let closed = false;
  let unsubscribe: () => void = () => undefined;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const close = () => {
        if (closed) return;
        closed = true;
        unsubscribe();
        clearInterval(heartbeat);
        try {
          controller.close();
        } catch {
          // The client already went away.
        }
      };
      request.signal.addEventListener("abort", close);
      const send = (type: string, data: unknown) => {
        if (!closed) controller.enqueue(encoder.encode(`event: ${type}\ndata: ${JSON.stringify(data)}\n\n`));
      };
      unsubscribe = studio.bus.subscribeAll((event) => {
        if (!INTERESTING.has(event.type)) return;
        void countPendingApprovals(studio.database).then((pendingApprovals) =>
          send("change", { type: event.type, runId: event.runId, nodeId: event.nodeId, pendingApprovals }),
        );
      });
      send("pending-approvals", { pendingApprovals: await countPendingApprovals(studio.database) });
      heartbeat = setInterval(() => {
        if (!closed) controller.enqueue(encoder.encode(`: keep-alive\n\n`));
      }, 15_000);
    },
    cancel() {
      closed = true;
      unsubscribe();
      clearInterval(heartbeat);
    },
  });
  return new Response(stream, {
    headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-store, no-transform", "x-accel-buffering": "no" },
  });
});
