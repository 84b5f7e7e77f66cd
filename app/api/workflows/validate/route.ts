import { z } from "zod";
import { json, readBody, route } from "@/lib/server/http";
import { validateWithStudio } from "@/lib/server/workflow-api";

export const dynamic = "force-dynamic";

/** Every problem of a definition at once, each with its node and field, plus its derived requirements. */
export const POST = route(async (request) => {
  const body = await readBody(request, z.unknown());
  const { valid, problems, requirements } = await validateWithStudio(body);
  return json({ valid, problems, requirements });
});
