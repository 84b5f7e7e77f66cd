import { z } from "zod";
import { listAudit } from "@/lib/persistence/audit-store";
import { json, readQuery, route } from "@/lib/server/http";

export const dynamic = "force-dynamic";

const AuditQuerySchema = z.object({ limit: z.coerce.number().int().min(1).max(1000).default(200) });

/** The security log, newest first. */
export const GET = route("GET /api/audit", async (request) => json({ entries: await listAudit(readQuery(request, AuditQuerySchema)) }));
