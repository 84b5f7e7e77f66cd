import { route } from "@/lib/server/http";
import { startStudio } from "@/lib/server/studio";

export const dynamic = "force-dynamic";

/**
 * The studio's metrics in Prometheus' text format (also at /metrics): runs, steps, approvals, and this process's
 * own figures. For a scraper, a personal access token holding only `metrics:read`.
 */
export const GET = route("GET /api/metrics", async () => {
  const { metrics } = await startStudio();
  return new Response(await metrics.text(), { headers: { "content-type": metrics.contentType, "cache-control": "no-store" } });
});
