import { RetentionPolicySchema } from "@/lib/contracts/retention";
import { json, readBody, route } from "@/lib/server/http";
import { changeRetention, retentionOverview } from "@/lib/server/retention-settings";

export const dynamic = "force-dynamic";

/** How long runs are kept (the studio-wide setting and the workflows' own), the database's size and what the settings would remove now. */
export const GET = route("GET /api/settings/retention", async () => json(await retentionOverview()));

/** Replaces the studio-wide setting: { keepDays, keepLast, keepFailedDays }, each a whole number or null; 422 naming the field otherwise. */
export const PUT = route("PUT /api/settings/retention", async (request, _context, principal) => json(await changeRetention(request, principal, null, await readBody(request, RetentionPolicySchema))));
