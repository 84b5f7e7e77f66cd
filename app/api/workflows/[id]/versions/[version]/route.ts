import { z } from "zod";
import { getVersion, NotFoundError } from "@/lib/persistence";
import { json, pathId, route } from "@/lib/server/http";
import { startStudio } from "@/lib/server/studio";

export const dynamic = "force-dynamic";

export const GET = route("GET /api/workflows/[id]/versions/[version]", async (_request, { params }: { params: Promise<{ id: string; version: string }> }) => {
  await startStudio();
  const { id: rawId, version: rawVersion } = await params;
  const id = pathId(rawId, "workflow");
  const version = z.coerce.number().int().positive().safeParse(rawVersion);
  if (!version.success) throw new NotFoundError("workflow version", `${id}@${rawVersion}`);
  return json({ version: await getVersion(id, version.data) });
});
