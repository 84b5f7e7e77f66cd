import { z } from "zod";
import { browseRoots, DirectoryBrowseError, listDirectories } from "@/lib/server/directory-browser";
import { HttpError, json, readQuery, route } from "@/lib/server/http";

export const dynamic = "force-dynamic";

const DirectoryQuerySchema = z.object({
  path: z.string().max(4096, "a path has at most 4096 characters").optional(),
  hidden: z.enum(["true", "false"]).default("false"),
});

/** The sub-folders of `path` (default: the first browse root), confined to the browse roots. */
export const GET = route("GET /api/fs/directories", async (request) => {
  const query = readQuery(request, DirectoryQuerySchema);
  try {
    const listing = await listDirectories(query.path, { roots: await browseRoots(), includeHidden: query.hidden === "true" });
    return json(listing);
  } catch (error) {
    if (DirectoryBrowseError.isInstance(error)) throw new HttpError(error.status, error.message);
    throw error;
  }
});
