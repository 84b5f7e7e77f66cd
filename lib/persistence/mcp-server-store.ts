import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import {
  McpEnvSchema,
  McpHeadersSchema,
  McpServerConfigSchema,
  type McpServerConfig,
  type McpServerConfigInput,
  type McpServerRecord,
  stdioCommandText,
  type StdioServerConfig,
} from "@/lib/validations/mcp-server";
import { getDatabase, type StudioDatabase } from "./database";
import { ConflictError, NotFoundError } from "./errors";
import { newId } from "./ids";
import { isRecordNotFound, isUniqueViolation } from "./prisma-errors";
import { getSecretBox } from "./secret-store";

/**
 * MCP servers the studio connects to, and the token that protects the
 * studio's own MCP endpoint. JSON columns are parsed with the zod schemas of
 * lib/validations/mcp-server.ts on the way in and out.
 */

type McpServerRow = Awaited<ReturnType<StudioDatabase["mcpServer"]["findFirstOrThrow"]>>;

const StringListSchema = z.array(z.string());

/** The digest a confirmation is stored as: SHA-256 of the command text. */
function commandDigest(config: Pick<StdioServerConfig, "command" | "args" | "env" | "cwd">): string {
  return createHash("sha256").update(stdioCommandText(config)).digest("hex");
}

function toRecord(row: McpServerRow): McpServerRecord {
  const common = { id: row.id, name: row.name, enabled: row.enabled, toolPrefix: row.toolPrefix, maxCallSeconds: row.maxCallSeconds, createdAt: row.createdAt, updatedAt: row.updatedAt };
  if (row.transport === "http") {
    return { ...common, transport: "http", url: row.url ?? "", headers: McpHeadersSchema.parse(JSON.parse(row.headers)), commandConfirmation: null };
  }
  const command = {
    command: row.command ?? "",
    args: StringListSchema.parse(JSON.parse(row.args)),
    env: McpEnvSchema.parse(JSON.parse(row.env)),
    cwd: row.cwd,
  };
  const confirmed = row.commandDigest !== null && row.commandDigest === commandDigest(command);
  return {
    ...common,
    transport: "stdio",
    ...command,
    commandConfirmation: { confirmed, confirmedBy: confirmed ? row.commandConfirmedBy : null, confirmedAt: confirmed ? row.commandConfirmedAt : null },
  };
}

/** The columns that record `person` confirming the command of `config` now; none for an HTTP server. */
function confirmationColumns(config: McpServerConfig, person: string | null) {
  if (config.transport !== "stdio" || person === null) return {};
  return { commandDigest: commandDigest(config), commandConfirmedBy: person, commandConfirmedAt: new Date() };
}

function toColumns(config: McpServerConfig) {
  const stdio = config.transport === "stdio" ? config : null;
  const http = config.transport === "http" ? config : null;
  return {
    name: config.name,
    transport: config.transport,
    enabled: config.enabled,
    toolPrefix: config.toolPrefix,
    maxCallSeconds: config.maxCallSeconds,
    command: stdio?.command ?? null,
    args: JSON.stringify(stdio?.args ?? []),
    env: JSON.stringify(stdio?.env ?? {}),
    cwd: stdio?.cwd ?? null,
    url: http?.url ?? null,
    headers: JSON.stringify(http?.headers ?? {}),
  };
}

type ServerColumns = ReturnType<typeof toColumns> & Partial<ReturnType<typeof confirmationColumns>>;

function nameTaken(name: string): ConflictError {
  return new ConflictError("MCP server", name, `An MCP server named ${name} already exists. Choose another name.`);
}

export async function listMcpServers(database: StudioDatabase = getDatabase()): Promise<McpServerRecord[]> {
  const rows = await database.mcpServer.findMany({ orderBy: { name: "asc" } });
  return rows.map(toRecord);
}

const ToolNamesSchema = z.record(z.string(), z.string());

/** The names given to each stored server's tools (server id -> the server's name for a tool -> ours). */
export async function listMcpToolNames(database: StudioDatabase = getDatabase()): Promise<Map<string, Record<string, string>>> {
  const rows = await database.mcpServer.findMany({ select: { id: true, toolNames: true } });
  return new Map(rows.map((row) => [row.id, ToolNamesSchema.catch({}).parse(JSON.parse(row.toolNames))]));
}

/** Stores the names given to a server's tools; a server removed meanwhile is no error (its names went with it). */
export async function rememberMcpToolNames(id: string, names: Record<string, string>, database: StudioDatabase = getDatabase()): Promise<void> {
  await database.mcpServer.updateMany({ where: { id }, data: { toolNames: JSON.stringify(ToolNamesSchema.parse(names)) } });
}

/** Throws NotFoundError for an unknown id. */
export async function getMcpServer(id: string, database: StudioDatabase = getDatabase()): Promise<McpServerRecord> {
  const row = await database.mcpServer.findUnique({ where: { id } });
  if (!row) throw new NotFoundError("MCP server", id);
  return toRecord(row);
}

/**
 * `confirmedBy`: the person who was shown the stdio command and confirmed it
 * (null: stored unconfirmed, so it does not start). Throws ConflictError when
 * the name is taken, ZodError on invalid input.
 */
export async function createMcpServer(
  input: McpServerConfigInput,
  database: StudioDatabase = getDatabase(),
  confirmedBy: string | null = null,
): Promise<McpServerRecord> {
  return storeConfig(input, confirmedBy, (columns) => database.mcpServer.create({ data: { id: newId(), ...columns } }));
}

/**
 * Replaces the whole configuration. A stdio command left as it was keeps its
 * confirmation; a changed one is unconfirmed unless `confirmedBy` confirms it.
 * Throws NotFoundError, ConflictError or ZodError.
 */
export async function replaceMcpServer(
  id: string,
  input: McpServerConfigInput,
  database: StudioDatabase = getDatabase(),
  confirmedBy: string | null = null,
): Promise<McpServerRecord> {
  return storeConfig(input, confirmedBy, (columns) =>
    database.mcpServer.update({ where: { id }, data: columns }).catch((error: unknown) => {
      if (isRecordNotFound(error)) throw new NotFoundError("MCP server", id);
      throw error;
    }),
  );
}

/**
 * What creating and replacing share: the configuration parsed (ZodError), turned
 * into columns with `confirmedBy`'s confirmation, written by `write`, and a name
 * another server has already reported as a ConflictError.
 */
async function storeConfig(
  input: McpServerConfigInput,
  confirmedBy: string | null,
  write: (columns: ServerColumns) => Promise<McpServerRow>,
): Promise<McpServerRecord> {
  const config = McpServerConfigSchema.parse(input);
  try {
    return toRecord(await write({ ...toColumns(config), ...confirmationColumns(config, confirmedBy) }));
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(config.name);
    throw error;
  }
}

/**
 * Records that `person` was shown `commandText` and confirmed it. Throws
 * ConflictError when the stored command is not that text any more (it changed
 * while the person looked), NotFoundError for an unknown id.
 */
export async function confirmMcpServerCommand(
  id: string,
  commandText: string,
  person: string,
  database: StudioDatabase = getDatabase(),
): Promise<McpServerRecord> {
  const server = await getMcpServer(id, database);
  if (server.transport !== "stdio") throw new ConflictError("MCP server", id, "This server runs no command on this machine (it is reached over HTTP); there is nothing to confirm.");
  if (stdioCommandText(server) !== commandText) {
    throw new ConflictError("MCP server", id, "The server's command changed since it was shown to you; look at it again and confirm what is stored now.");
  }
  return toRecord(await database.mcpServer.update({ where: { id }, data: confirmationColumns(server, person) }));
}

/** Throws NotFoundError for an unknown id. */
export async function deleteMcpServer(id: string, database: StudioDatabase = getDatabase()): Promise<void> {
  const { count } = await database.mcpServer.deleteMany({ where: { id } });
  if (count === 0) throw new NotFoundError("MCP server", id);
}

const SERVING_TOKEN_KEY = "mcp_serving_token";
const SERVING_TOKEN_CONTEXT = "meta:mcp_serving_token";

function newToken(): string {
  return `nst_${randomBytes(32).toString("base64url")}`;
}

/** The bearer token for /api/mcp, made on first use and stored sealed with the secret key. */
export async function getServingToken(database: StudioDatabase = getDatabase()): Promise<string> {
  const box = await getSecretBox(database);
  const row = await database.meta.findUnique({ where: { key: SERVING_TOKEN_KEY } });
  if (row) return box.open(row.value, SERVING_TOKEN_CONTEXT);
  const token = newToken();
  // Two first uses at once: the first insert wins and both read it back.
  await database.meta.upsert({
    where: { key: SERVING_TOKEN_KEY },
    create: { key: SERVING_TOKEN_KEY, value: box.seal(token, SERVING_TOKEN_CONTEXT) },
    update: {},
  });
  const stored = await database.meta.findUniqueOrThrow({ where: { key: SERVING_TOKEN_KEY } });
  return box.open(stored.value, SERVING_TOKEN_CONTEXT);
}

/** Replaces the token; the old one stops working at once. */
export async function regenerateServingToken(database: StudioDatabase = getDatabase()): Promise<string> {
  const box = await getSecretBox(database);
  const token = newToken();
  const value = box.seal(token, SERVING_TOKEN_CONTEXT);
  await database.meta.upsert({ where: { key: SERVING_TOKEN_KEY }, create: { key: SERVING_TOKEN_KEY, value }, update: { value } });
  return token;
}

/** Whether `candidate` is the serving token, compared in constant time. */
export async function isServingToken(candidate: string, database: StudioDatabase = getDatabase()): Promise<boolean> {
  const token = Buffer.from(await getServingToken(database));
  const given = Buffer.from(candidate);
  return given.length === token.length && timingSafeEqual(given, token);
}
