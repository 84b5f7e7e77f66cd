import { listAudit } from "@/lib/persistence/audit-store";
import { json, readQuery, route } from "@/lib/server/http";
import { AuditQuerySchema } from "@/lib/validations/access";

export const dynamic = "force-dynamic";

/** The security log, newest first, a page at a time (`nextCursor` → `?cursor=`), filtered by action, person and dates. */
export const GET = route("GET /api/audit", async (request) => json(await listAudit(readQuery(request, AuditQuerySchema))));
