/** The behaviour hints an MCP server may give for a tool (all optional, all advisory). */
export interface McpToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** What the studio's permission gate and scheduler need to know about a tool. */
export interface ToolFlags {
  readOnly: boolean;
  destructive: boolean;
  concurrencySafe: boolean;
}

/**
 * Maps MCP annotations to the Tool flags: read-only only when the server says
 * so; destructive unless the server says otherwise (the MCP default is true,
 * and a read-only tool is never destructive); safe to run alongside others
 * only when read-only and not reaching an open world.
 *
 * @example
 *   toolFlags({ readOnlyHint: true }) // { readOnly: true, destructive: false, concurrencySafe: true }
 *   toolFlags({}) // { readOnly: false, destructive: true, concurrencySafe: false }
 */
export function toolFlags(annotations: McpToolAnnotations | undefined): ToolFlags {
  const readOnly = annotations?.readOnlyHint === true;
  const destructive = !readOnly && annotations?.destructiveHint !== false;
  const concurrencySafe = readOnly && annotations?.openWorldHint !== true;
  return { readOnly, destructive, concurrencySafe };
}
