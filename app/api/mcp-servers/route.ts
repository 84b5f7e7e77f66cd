import { listMcpServers } from "@/lib/persistence/mcp-server-store";
import { json, readBody, route } from "@/lib/server/http";
import { saveMcpServer, serverView } from "@/lib/server/mcp-servers";
import { startStudio } from "@/lib/server/studio";
import { McpServerBodySchema } from "@/lib/validations/mcp-server";

export const dynamic = "force-dynamic";

/** Every MCP server with its connection state, error and tools. */
export const GET = route("GET /api/mcp-servers", async () => {
  const studio = await startStudio();
  const servers = await listMcpServers(studio.database);
  return json({ servers: servers.map((server) => serverView(server, studio.mcp.statusOf(server.id))) });
});

/**
 * Adds a server and connects to it (an enabled one; a stdio one only with its
 * command confirmed, see saveMcpServer); the answer says whether that worked.
 */
export const POST = route("POST /api/mcp-servers", async (request, _context, principal) => {
  const studio = await startStudio();
  const body = await readBody(request, McpServerBodySchema);
  const server = await saveMcpServer(studio, request, principal, null, body);
  return json({ server: serverView(server, studio.mcp.statusOf(server.id)) }, 201);
});
