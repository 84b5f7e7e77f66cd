import { z } from "zod";
import { PERSON_TRIGGER } from "@/lib/contracts/run-trigger";
import { traceparentDetail } from "@/lib/observability/trace-context";
import { NotFoundError } from "@/lib/persistence";
import { readEventTexts, runStatus } from "@/lib/persistence/run-queries";
import { StartRunBodySchema } from "@/lib/validations/run";
import { FINISHED_RUN_STATUSES } from "@/lib/workflow/run-types";
import { runEventStream } from "./event-stream";
import { json, pathId, readBody, route } from "./http";
import { starterOf } from "./access/principal";
import { eventRedaction } from "./access/run-view";
import { startRun } from "./runs";
import { startStudio } from "./studio";

/**
 * The two requests a workflow's caller makes for every run: start it, then
 * follow its events to the end. app/api serves them through Next, and
 * scripts/serve.mjs straight from Node (./direct/dispatch.ts): one handler
 * each, whichever way the request came in.
 */

type IdContext = { params: Promise<{ id: string }> };

/** POST /api/workflows/{id}/runs: starts a run with the given inputs; 422 with every problem when the inputs or the workflow are not valid. */
export const startRunRoute = route("POST /api/workflows/[id]/runs", async (request, { params }: IdContext, principal) => {
  const id = pathId((await params).id, "workflow");
  const body = await readBody(request, StartRunBodySchema.optional());
  // A caller's `traceparent`: the run's trace continues the caller's.
  const trigger = { ...PERSON_TRIGGER, ...traceparentDetail(request.headers.get("traceparent")) };
  return json({ run: await startRun(id, body ?? { inputs: {} }, trigger, starterOf(principal)) }, 201);
});

const SeqSchema = z.coerce.number().int().min(0).catch(0);

/**
 * GET /api/runs/{id}/events: Server-Sent Events of one run, each with its
 * sequence number as the id. A client reconnecting with Last-Event-ID (or
 * ?after=N) gets exactly what it missed, then live events.
 */
export const runEventsRoute = route("GET /api/runs/[id]/events", async (request, { params }: IdContext, principal) => {
  const studio = await startStudio();
  const id = pathId((await params).id, "run");
  if ((await runStatus(id, studio.database)) === null) throw new NotFoundError("run", id);
  const after = SeqSchema.parse(request.headers.get("last-event-id") ?? new URL(request.url).searchParams.get("after") ?? 0);
  // Child runs of workflows the reader may not open are not named (lib/server/access/run-view.ts); null for most.
  const redaction = await eventRedaction(principal, studio.database);
  return runEventStream(
    {
      subscribe: (listener) => studio.bus.subscribe(id, redaction ? (event) => listener(redaction.live(event)) : listener),
      read: async (afterSeq, limit, maxBytes) => {
        const texts = await readEventTexts(id, afterSeq, limit, studio.database, maxBytes);
        return redaction ? texts.map(redaction.stored) : texts;
      },
      isFinished: async () => {
        const status = await runStatus(id, studio.database);
        return status !== null && FINISHED_RUN_STATUSES.has(status);
      },
    },
    after,
    request.signal,
  );
});
