import { z } from "zod";
import { readEvents, runStatus } from "@/lib/persistence/run-queries";
import { runEventStream } from "@/lib/server/event-stream";
import { pathId, route } from "@/lib/server/http";
import { startStudio } from "@/lib/server/studio";
import { FINISHED_RUN_STATUSES } from "@/lib/workflow/run-types";
import { NotFoundError } from "@/lib/persistence";

export const dynamic = "force-dynamic";

const SeqSchema = z.coerce.number().int().min(0).catch(0);

/**
 * Server-Sent Events of one run, each with its sequence number as the id. A
 * client reconnecting with Last-Event-ID (or ?after=N) gets exactly what it
 * missed, then live events.
 */
export const GET = route(async (request, { params }: { params: Promise<{ id: string }> }) => {
  const studio = await startStudio();
  const id = pathId((await params).id, "run");
  if ((await runStatus(id, studio.database)) === null) throw new NotFoundError("run", id);
  const after = SeqSchema.parse(request.headers.get("last-event-id") ?? new URL(request.url).searchParams.get("after") ?? 0);
  return runEventStream(
    {
      subscribe: (listener) => studio.bus.subscribe(id, listener),
      read: (afterSeq, limit) => readEvents(id, afterSeq, limit, studio.database),
      isFinished: async () => {
        const status = await runStatus(id, studio.database);
        return status !== null && FINISHED_RUN_STATUSES.has(status);
      },
    },
    after,
    request.signal,
  );
});
