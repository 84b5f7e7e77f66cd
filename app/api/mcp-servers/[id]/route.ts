import { deleteMcpServer, getMcpServer } from "@/lib/persistence/mcp-server-store";
import { json, pathId, readBody, route } from "@/lib/server/http";
import { saveMcpServer, serverView } from "@/lib/server/mcp-servers";
import { startStudio } from "@/lib/server/studio";
import { McpServerBodySchema } from "@/lib/validations/mcp-server";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

export const GET = route("GET /api/mcp-servers/[id]", async (_request, context: Context) => {
  const studio = await startStudio();
  const server = await getMcpServer(pathId((await context.params).id, "MCP server"), studio.database);
  return json({ server: serverView(server, studio.mcp.statusOf(server.id)) });
});

/** Replaces the configuration (enable and disable go through here too) and reconnects. */
export const PUT = route("PUT /api/mcp-servers/[id]", async (request, context: Context, principal) => {
  const studio = await startStudio();
  const id = pathId((await context.params).id, "MCP server");
  const body = await readBody(request, McpServerBodySchema);
  const server = await saveMcpServer(studio, request, principal, id, body);
  return json({ server: serverView(server, studio.mcp.statusOf(server.id)) });
});

/** Removes the server and closes its connection; its tools leave the palette. */
export const DELETE = route("DELETE /api/mcp-servers/[id]", async (_request, context: Context) => {
  const studio = await startStudio();
  await deleteMcpServer(pathId((await context.params).id, "MCP server"), studio.database);
  await studio.reloadMcp();
  return new Response(null, { status: 204 });
});
