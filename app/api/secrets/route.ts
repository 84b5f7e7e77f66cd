import { createSecret } from "@/lib/persistence";
import { secretsFor } from "@/lib/server/access/secret-view";
import { json, readBody, route } from "@/lib/server/http";
import { refuseUnknownWorkflows, secretProblem } from "@/lib/server/secrets";
import { startStudio } from "@/lib/server/studio";
import { CreateSecretBodySchema } from "@/lib/validations/secret";

export const dynamic = "force-dynamic";

/** Names, descriptions, tools and times: never a value. */
export const GET = route("GET /api/secrets", async (_request, _context, principal) => {
  const { database } = await startStudio();
  return json({ secrets: await secretsFor(principal, database) });
});

/** Stores a secret encrypted. `problem` is the tool's checkSecret answer: set is not the same as usable. */
export const POST = route("POST /api/secrets", async (request) => {
  const studio = await startStudio();
  const body = await readBody(request, CreateSecretBodySchema);
  await refuseUnknownWorkflows(body.workflows, studio.database);
  const secret = await createSecret(body);
  return json({ secret, problem: secretProblem(studio.pool(), body.tool, body.value) }, 201);
});
