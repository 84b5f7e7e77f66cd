import { McpConnection, toolFlags, type McpServerStatus } from "@/lib/mcp";
import type { McpServerRecord } from "@/lib/validations/mcp-server";
import type { Studio } from "./studio";

/** A stored server as the API returns it: its configuration, connection state, error in words, and tools. */
export type McpServerView = McpServerRecord & Omit<McpServerStatus, "id" | "name">;

export function serverView(record: McpServerRecord, status: McpServerStatus | undefined): McpServerView {
  return {
    ...record,
    state: status?.state ?? (record.enabled ? "connecting" : "disabled"),
    error: status?.error ?? null,
    tools: status?.tools ?? [],
  };
}

/**
 * Connects to a server and lists its tools, for the page's "Test" button: an
 * enabled server is reconnected in place; a disabled one is tried on a
 * throwaway connection, so testing never enables it.
 */
export async function testServer(studio: Studio, record: McpServerRecord): Promise<McpServerView> {
  if (record.enabled) {
    await studio.reloadMcp();
    return serverView(record, await studio.mcp.reconnect(record.id));
  }
  const connection = new McpConnection({ ...record, enabled: true }, studio.secrets);
  try {
    await connection.connect();
    const tools = connection.tools.map((remote) => ({
      name: remote.name,
      remoteName: remote.name,
      title: remote.title ?? remote.annotations?.title ?? remote.name,
      description: remote.description ?? "",
      flags: toolFlags(remote.annotations),
    }));
    return { ...record, state: connection.state === "connected" ? "disabled" : connection.state, error: connection.error, tools };
  } finally {
    await connection.close();
  }
}
