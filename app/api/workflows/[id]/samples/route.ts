import { SampleQuerySchema } from "@/lib/contracts/samples";
import { json, pathId, readQuery, route } from "@/lib/server/http";
import { workflowSamples } from "@/lib/server/samples";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

/**
 * Each node's sample output for mapping fields (its pin, else its newest run output, marked with which) and the
 * newest run's inputs, secrets masked; `?nodeIds=a,b` for only those nodes (422 naming `nodeIds` when one is no node id).
 */
export const GET = route("GET /api/workflows/[id]/samples", async (request, { params }: Context) => {
  const id = pathId((await params).id, "workflow");
  return json({ samples: await workflowSamples(id, readQuery(request, SampleQuerySchema)) });
});
