import { json, pathId, readBody, route } from "@/lib/server/http";
import { confirmServerCommand, serverView } from "@/lib/server/mcp-servers";
import { startStudio } from "@/lib/server/studio";
import { ConfirmCommandBodySchema } from "@/lib/validations/mcp-server";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

/** A person confirms the exact command they were shown (`{ command }`, see stdioCommandText); the server then starts. 409 if it changed meanwhile. */
export const POST = route("POST /api/mcp-servers/[id]/confirm", async (request, context: Context, principal) => {
  const studio = await startStudio();
  const id = pathId((await context.params).id, "MCP server");
  const { command } = await readBody(request, ConfirmCommandBodySchema);
  const server = await confirmServerCommand(studio, request, principal, id, command);
  return json({ server: serverView(server, studio.mcp.statusOf(server.id)) });
});
