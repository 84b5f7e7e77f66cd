import { DatabaseFullOutputs } from "@/lib/persistence/kept-outputs";
import { HttpError, route } from "@/lib/server/http";
import { pathId } from "@/lib/server/path-id";
import { startStudio } from "@/lib/server/studio";

export const dynamic = "force-dynamic";

/**
 * A step's whole result, kept because its workflow keeps full outputs and
 * its result was too large to store in the step (lib/persistence/kept-outputs.ts):
 * the JSON the step returned, streamed part by part as a download. 404 when
 * none is kept (the result was stored whole, or the workflow does not keep them).
 */
export const GET = route("GET /api/runs/[id]/steps/[nodeId]/output", async (_request, { params }: { params: Promise<{ id: string; nodeId: string }> }) => {
  const { database } = await startStudio();
  const path = await params;
  const runId = pathId(path.id, "run");
  const nodeId = pathId(path.nodeId, "step");
  const body = await new DatabaseFullOutputs(database).open(runId, nodeId);
  if (!body) {
    throw new HttpError(
      404,
      `No whole result of step "${nodeId}" is kept in run ${runId}: it kept what it stored (its result was small enough), or its workflow does not keep full outputs (Workflow settings → Keep full outputs).`,
    );
  }
  return new Response(body, {
    headers: {
      "content-type": "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="run-${runId}-${nodeId.replace(/[^A-Za-z0-9_.-]/g, "_")}.json"`,
      "cache-control": "no-store",
    },
  });
});
