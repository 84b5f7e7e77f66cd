import type { Metadata } from "next";
import { McpServerList } from "@/components/mcp/mcp-server-list";
import { getServingToken, listMcpServers } from "@/lib/persistence/mcp-server-store";
import { serverView } from "@/lib/server/mcp-servers";
import { startStudio } from "@/lib/server/studio";
import { NoAccess } from "@/components/ui/no-access";
import { pagePrincipal } from "@/lib/server/access/page-access";

export const metadata: Metadata = { title: "MCP servers" };
export const dynamic = "force-dynamic";

export default async function McpServersPage() {
  const studio = await startStudio();
  const principal = await pagePrincipal();
  if (!principal.scopes.has("mcp:manage")) return <NoAccess title="MCP servers" scope="mcp:manage" role={principal.role} />;
  const servers = await listMcpServers(studio.database);
  const token = await getServingToken(studio.database);
  return <McpServerList initialServers={servers.map((server) => serverView(server, studio.mcp.statusOf(server.id)))} initialToken={token} />;
}
