import { z } from "zod";
import { McpServerConfigSchema } from "@/lib/validations/mcp-server";

/** Where a server's connection stands; `unconfirmed`: a stdio server whose command nobody has confirmed yet, so it does not run. */
export const McpServerStateSchema = z.enum(["connected", "connecting", "failed", "disabled", "unconfirmed"]);

/** One of a server's tools as the MCP page lists it. */
export const McpToolViewSchema = z.object({
  /** The studio-side name workflows use. */
  name: z.string(),
  /** The server's own name for it. */
  remoteName: z.string(),
  title: z.string(),
  description: z.string(),
  flags: z.object({ readOnly: z.boolean(), destructive: z.boolean(), concurrencySafe: z.boolean() }),
  /** Why the studio cannot call it (it requires task-based execution); null when it can. */
  unavailable: z.string().nullable(),
});

/**
 * A stored MCP server as the MCP page and GET /api/mcp-servers show it: its
 * configuration, who confirmed its command, its connection state, the error
 * in words, and its tools. Dates arrive as Date from a server page and as ISO
 * text from the API; both read.
 */
export const McpServerViewSchema = McpServerConfigSchema.and(
  z.object({
    id: z.string(),
    createdAt: z.coerce.date(),
    updatedAt: z.coerce.date(),
    commandConfirmation: z
      .object({ confirmed: z.boolean(), confirmedBy: z.string().nullable(), confirmedAt: z.coerce.date().nullable() })
      .nullable(),
    state: McpServerStateSchema,
    error: z.string().nullable(),
    tools: z.array(McpToolViewSchema),
  }),
);
export type McpServerView = z.infer<typeof McpServerViewSchema>;
