import { recordAudit } from "@/lib/persistence/audit-store";
import { clientAddress } from "@/lib/server/access/principal";
import { AUDIT_EXPORT_TYPES, auditExportFileName, auditExportStream } from "@/lib/server/audit-export";
import { readQuery, route } from "@/lib/server/http";
import { startStudio } from "@/lib/server/studio";
import { AuditExportQuerySchema } from "@/lib/validations/access";

export const dynamic = "force-dynamic";

/** The security log as a file (`?format=csv|jsonl`, with the list's filters), newest first; the export itself is logged. */
export const GET = route("GET /api/audit/export", async (request, _context, principal) => {
  const { database } = await startStudio();
  const { format, ...filters } = readQuery(request, AuditExportQuerySchema);
  await recordAudit({ actor: principal.person, actorId: principal.personId, action: "audit-exported", detail: { format, filters }, clientAddress: clientAddress(request) }, database);
  return new Response(auditExportStream(filters, format, database), {
    headers: {
      "content-type": AUDIT_EXPORT_TYPES[format],
      "content-disposition": `attachment; filename="${auditExportFileName(format)}"`,
      "cache-control": "no-store",
    },
  });
});
