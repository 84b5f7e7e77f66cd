import { json, route } from "@/lib/server/http";
import { startStudio } from "@/lib/server/studio";
import { catalogEntry } from "@/lib/server/tool-catalog";

export const dynamic = "force-dynamic";

/** The catalog the palette renders. */
export const GET = route("GET /api/tools", async () => {
  const studio = await startStudio();
  return json({ tools: studio.pool().all().map(catalogEntry) });
});
