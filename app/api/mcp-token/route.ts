import { getServingToken, regenerateServingToken } from "@/lib/persistence/mcp-server-store";
import { json, route } from "@/lib/server/http";
import { startStudio } from "@/lib/server/studio";

export const dynamic = "force-dynamic";

/** The bearer token for /api/mcp (made on first use). Needs a session like every other page. */
export const GET = route("GET /api/mcp-token", async () => {
  const studio = await startStudio();
  return json({ token: await getServingToken(studio.database) });
});

/** A new token; clients using the old one get 401 from now on. */
export const POST = route("POST /api/mcp-token", async () => {
  const studio = await startStudio();
  return json({ token: await regenerateServingToken(studio.database) });
});
