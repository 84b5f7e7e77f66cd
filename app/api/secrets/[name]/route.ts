import { deleteSecret, NotFoundError, replaceSecret, resolveSecret } from "@/lib/persistence";
import { secretsFor } from "@/lib/server/access/secret-view";
import { json, readBody, route } from "@/lib/server/http";
import { refuseUnknownWorkflows, secretProblem } from "@/lib/server/secrets";
import { startStudio } from "@/lib/server/studio";
import { SecretNameSchema, UpdateSecretBodySchema } from "@/lib/validations/secret";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ name: string }> };

async function nameFrom(context: Context): Promise<string> {
  const raw = (await context.params).name;
  const parsed = SecretNameSchema.safeParse(raw);
  if (!parsed.success) throw new NotFoundError("secret", raw.slice(0, 128));
  return parsed.data;
}

/** Replaces the value, description or tool; the value is never returned. */
export const PUT = route("PUT /api/secrets/[name]", async (request, context: Context) => {
  const studio = await startStudio();
  const name = await nameFrom(context);
  const body = await readBody(request, UpdateSecretBodySchema);
  await refuseUnknownWorkflows(body.workflows, studio.database);
  const secret = await replaceSecret(name, body);
  const value = body.value ?? (await resolveSecret(name));
  return json({ secret, problem: value === undefined ? "" : secretProblem(studio.pool(), secret.tool, value) });
});

export const DELETE = route("DELETE /api/secrets/[name]", async (_request, context: Context) => {
  await startStudio();
  const name = await nameFrom(context);
  await deleteSecret(name);
  return new Response(null, { status: 204 });
});

export const GET = route("GET /api/secrets/[name]", async (_request, context: Context, principal) => {
  const { database } = await startStudio();
  const name = await nameFrom(context);
  // One limited to workflows the caller does not read is, to them, one that does not exist.
  const secret = (await secretsFor(principal, database)).find((each) => each.name === name);
  if (!secret) throw new NotFoundError("secret", name);
  return json({ secret });
});
