// The MCP client side of the studio: connections to configured servers and
// their tools as studio Tools. No React, no Next, no Prisma.
export { toolFlags } from "./annotations";
export type { McpToolAnnotations, ToolFlags } from "./annotations";
export { toToolResult } from "./call-result";
export { DEFAULT_TIMEOUTS, INHERITED_VARIABLES, McpConnection } from "./connection";
export type { ConnectionState, ConnectionTimeouts, McpServerEntry } from "./connection";
export { McpConnectionManager } from "./connection-manager";
export type { McpConnectionManagerOptions, McpServerStatus, McpToolStatus } from "./connection-manager";
export { inputModelFromJsonSchema, McpTool, unavailableReason } from "./mcp-tool";
export type { McpToolSpec, RemoteCall, RemoteTool } from "./mcp-tool";
export { expandSecrets, MissingSecretError, secretReferences } from "./secret-expansion";
export { resolveToolNames, sanitizeToolName } from "./tool-names";
export type { ServerToolNames } from "./tool-names";
