import { McpConnection, toolFlags, unavailableReason, type McpServerStatus } from "@/lib/mcp";
import { recordAudit } from "@/lib/persistence/audit-store";
import { confirmMcpServerCommand, createMcpServer, getMcpServer, replaceMcpServer } from "@/lib/persistence/mcp-server-store";
import { configOfBody, stdioCommandText, type McpServerBody, type McpServerRecord } from "@/lib/validations/mcp-server";
import { clientAddress, type Principal } from "./access/principal";
import { requireRecentSignIn } from "./access/recent-sign-in";
import { HttpError } from "./http";
import type { Studio } from "./studio-types";
import type { McpServerView } from "@/lib/contracts/mcp-server";


export const UNCONFIRMED_COMMAND =
  "Not started: nobody has confirmed this server's command yet. Open it on the MCP page, read the exact command, and confirm it to start the server.";

/** Whether the studio may start this server: HTTP servers always, stdio servers only with their command confirmed. */
export function mayStart(record: McpServerRecord): boolean {
  return record.transport !== "stdio" || record.commandConfirmation?.confirmed === true;
}

export function serverView(record: McpServerRecord, status: McpServerStatus | undefined): McpServerView {
  if (record.enabled && !mayStart(record)) return { ...record, state: "unconfirmed", error: UNCONFIRMED_COMMAND, tools: [] };
  return {
    ...record,
    state: status?.state ?? (record.enabled ? "connecting" : "disabled"),
    error: status?.error ?? null,
    tools: status?.tools ?? [],
  };
}

/**
 * Adds (`id` null) or replaces a server. A stdio server runs a command on this
 * machine, so a new command, or a changed one, needs a recent sign-in, and it
 * starts only when the body carries the exact command text the person was
 * shown (`confirmCommand`); otherwise it is stored unconfirmed and waits.
 * Every confirmation is written to the security log.
 */
export async function saveMcpServer(studio: Studio, request: Request, principal: Principal, id: string | null, body: McpServerBody): Promise<McpServerRecord> {
  const config = configOfBody(body);
  let confirmedBy: string | null = null;
  if (body.transport === "stdio") {
    const before = id === null ? null : await getMcpServer(id, studio.database);
    const commandChanged = before === null || before.transport !== "stdio" || stdioCommandText(before) !== stdioCommandText(body);
    if (commandChanged) requireRecentSignIn(principal, id === null ? "Adding a stdio MCP server" : "Changing a stdio MCP server's command");
    if (body.confirmCommand !== undefined) {
      if (body.confirmCommand !== stdioCommandText(body)) {
        throw new HttpError(409, "The command you confirmed is not the one being saved; look at it again and confirm what will run.");
      }
      confirmedBy = principal.person;
    }
  }
  const saved =
    id === null ? await createMcpServer(config, studio.database, confirmedBy) : await replaceMcpServer(id, config, studio.database, confirmedBy);
  if (confirmedBy !== null && saved.transport === "stdio") await auditConfirmation(request, principal, saved);
  await studio.reloadMcp();
  return saved;
}

/** Confirms the stored command of a server (one added unconfirmed, or kept from before confirmations existed). */
export async function confirmServerCommand(studio: Studio, request: Request, principal: Principal, id: string, commandText: string): Promise<McpServerRecord> {
  requireRecentSignIn(principal, "Starting a stdio MCP server");
  const saved = await confirmMcpServerCommand(id, commandText, principal.person, studio.database);
  await auditConfirmation(request, principal, saved);
  await studio.reloadMcp();
  return saved;
}

async function auditConfirmation(request: Request, principal: Principal, server: McpServerRecord): Promise<void> {
  if (server.transport !== "stdio") return;
  console.log(`[studio] ${principal.person} confirmed the command of MCP server "${server.name}": ${server.command} ${JSON.stringify(server.args)}`);
  await recordAudit({
    actor: principal.person,
    actorId: principal.personId,
    action: "mcp-command-confirmed",
    target: server.id,
    detail: { server: server.name, command: server.command, args: server.args, cwd: server.cwd, environment: Object.keys(server.env) },
    clientAddress: clientAddress(request),
  });
}

/**
 * Connects to a server and lists its tools, for the page's "Test" button: an
 * enabled server is reconnected in place; a disabled one is tried on a
 * throwaway connection, so testing never enables it.
 */
export async function testServer(studio: Studio, record: McpServerRecord): Promise<McpServerView> {
  if (!mayStart(record)) throw new HttpError(409, UNCONFIRMED_COMMAND);
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
      unavailable: unavailableReason(remote, record.name),
    }));
    return { ...record, state: connection.state === "connected" ? "disabled" : connection.state, error: connection.error, tools };
  } finally {
    await connection.close();
  }
}
