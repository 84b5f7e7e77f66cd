import { createMcpServer, listMcpServers } from "@/lib/persistence/mcp-server-store";
import { json, readBody, route } from "@/lib/server/http";
import { serverView } from "@/lib/server/mcp-servers";
import { startStudio } from "@/lib/server/studio";
import { McpServerConfigSchema } from "@/lib/validations/mcp-server";

export const dynamic = "force-dynamic";

/** Every MCP server with its connection state, error and tools. */
export const GET = route(async () => {
  const studio = await startStudio();
  const servers = await listMcpServers(studio.database);
  return json({ servers: servers.map((server) => serverView(server, studio.mcp.statusOf(server.id))) });
});

/** Adds a server and connects to it (an enabled one); the answer says whether that worked. */
export const POST = route(async (request) => {
  const studio = await startStudio();
  const body = await readBody(request, McpServerConfigSchema);
  const server = await createMcpServer(body, studio.database);
  await studio.reloadMcp();
  return json({ server: serverView(server, studio.mcp.statusOf(server.id)) }, 201);
});
