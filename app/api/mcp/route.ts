import { publicRoute } from "@/lib/server/http";
import { handleMcpRequest } from "@/lib/server/mcp-serving";

export const dynamic = "force-dynamic";

/**
 * The studio's workflows as MCP tools over streamable HTTP (stateless).
 * Protected by the MCP token (Authorization: Bearer), not by a session:
 * proxy.ts lets this path through to the check in handleMcpRequest;
 * the Host and Origin checks still apply.
 */
const handle = publicRoute(async (request: Request) => handleMcpRequest(request));

export const GET = handle;
export const POST = handle;
export const DELETE = handle;
