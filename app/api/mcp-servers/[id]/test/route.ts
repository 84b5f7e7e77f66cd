import { getMcpServer } from "@/lib/persistence/mcp-server-store";
import { json, pathId, route } from "@/lib/server/http";
import { testServer } from "@/lib/server/mcp-servers";
import { startStudio } from "@/lib/server/studio";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

/** Connects to the server and lists its tools; a failure is reported in `server.error`, not as an HTTP error. */
export const POST = route("POST /api/mcp-servers/[id]/test", async (_request, context: Context) => {
  const studio = await startStudio();
  const server = await getMcpServer(pathId((await context.params).id, "MCP server"), studio.database);
  return json({ server: await testServer(studio, server) });
});
