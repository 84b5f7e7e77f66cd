import { starterOf } from "@/lib/server/access/principal";
import { json, pathId, readBody, readQuery, route } from "@/lib/server/http";
import { previewTestRun, startTestRun } from "@/lib/server/test-runs";
import { TestRunBodySchema, TestRunQuerySchema } from "@/lib/validations/run";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

/** What a test run of `?nodeId=…&mode=step|up-to` would run and keep, and what it has no values for. */
export const GET = route("GET /api/workflows/[id]/test-runs", async (request, { params }: Context) => {
  const id = pathId((await params).id, "workflow");
  return json({ preview: await previewTestRun(id, readQuery(request, TestRunQuerySchema)) });
});

/**
 * Starts a test run of the saved draft: Run this step (`mode: "step"`) or Run up to here (`"up-to"`), with `values`
 * typed for upstream nodes that have no pin and no run. 201 with the run; 422 naming `nodeId`, `values.<node>` or `inputs.<field>`.
 */
export const POST = route("POST /api/workflows/[id]/test-runs", async (request, { params }: Context, principal) => {
  const id = pathId((await params).id, "workflow");
  const body = await readBody(request, TestRunBodySchema);
  return json({ run: await startTestRun(id, body, starterOf(principal)) }, 201);
});
