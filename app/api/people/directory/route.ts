import { listColleagues } from "@/lib/persistence/people-store";
import { json, route } from "@/lib/server/http";
import { startStudio } from "@/lib/server/studio";

export const dynamic = "force-dynamic";

/** The other active people by name, to share a workflow with (the People page has the rest, for those who manage people). */
export const GET = route("GET /api/people/directory", async (_request, _context, principal) => {
  const { database } = await startStudio();
  return json({ people: await listColleagues(principal.personId, database) });
});
