import { z } from "zod";

/**
 * A tool as the studio's pages see it (the Tools page, the palette, the
 * inspector, the secrets page; GET /api/tools): everything a person needs,
 * nothing secret, plain data. Built on the server from the tool framework
 * (lib/server/tool-catalog.ts), so no page loads the tools themselves.
 */

/** A JSON Schema document (the inspector's forms are generated from these). */
export const JsonSchemaDocumentSchema = z.record(z.string(), z.unknown());

/** One operation as the palette and the inspector show it. */
export const CatalogOperationSchema = z.object({
  /** Stable identifier of the operation. */
  name: z.string(),
  title: z.string(),
  description: z.string(),
  readOnly: z.boolean(),
  capabilities: z.array(z.string()),
  inputSchema: JsonSchemaDocumentSchema,
});
export type CatalogOperation = z.infer<typeof CatalogOperationSchema>;

export const CatalogToolSchema = z.object({
  name: z.string(),
  title: z.string(),
  description: z.string(),
  icon: z.string().nullable(),
  /** Palette group; an MCP server's tools are in `mcp:<server>`. */
  domain: z.string(),
  /** The MCP server a tool comes from, or null for the studio's own tools. */
  server: z.string().nullable(),
  origin: z.enum(["core", "authored", "imported", "mcp"]),
  runtime: z.enum(["in_process", "local_subprocess", "hosted"]),
  /** The tool's own capabilities and its operations', each once, in declaration order. */
  capabilities: z.array(z.string()),
  flags: z.object({ readOnly: z.boolean(), concurrencySafe: z.boolean(), destructive: z.boolean() }),
  operations: z.array(CatalogOperationSchema),
  /** The tool's input schema as a model sees it (one object; with operations, an `operation` enum and every operation's fields), secret inputs removed. */
  inputSchema: JsonSchemaDocumentSchema,
  /** `null` = nothing to configure: the inspector shows no settings section. */
  settingsSchema: JsonSchemaDocumentSchema.nullable(),
  rootSetting: z.string().nullable(),
  pathInputs: z.array(z.string()),
  secretInputs: z.array(z.object({ name: z.string(), credentialHelp: z.string() })),
  /** Why the tool cannot be called (an MCP tool that requires task-based execution); null when it can. The palette leaves such tools out. */
  unavailable: z.string().nullable(),
});
export type CatalogTool = z.infer<typeof CatalogToolSchema>;

/** GET /api/tools */
export const ToolListSchema = z.object({ tools: z.array(CatalogToolSchema) });
