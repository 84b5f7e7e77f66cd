/** Turns what a failed connection or call threw into a sentence a person can act on. */
export function describeConnectError(error: unknown, target: string): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  if (code === "ENOENT") return `The command ${target} was not found. Check the command, or give its full path.`;
  if (code === "EACCES") return `The command ${target} cannot be run (permission denied). Make it executable, or start it through node or npx.`;
  if (cause?.code === "ECONNREFUSED") return `Nothing answers at ${target} (connection refused). Check the URL and that the server is running.`;
  if (cause?.code === "ENOTFOUND") return `The host of ${target} is unknown. Check the URL.`;
  if (typeof code === "number" && code >= 400 && code < 600) {
    const hint = code === 401 || code === 403 ? " Check the headers (e.g. Authorization: Bearer ${TOKEN})." : "";
    return `The server at ${target} answered HTTP ${code}.${hint} ${message}`.trim();
  }
  if (message === "fetch failed" && typeof cause?.message === "string") return `Could not reach ${target}: ${cause.message}.`;
  return message;
}

/** Whether the client threw because the result did not match the MCP schema (a ZodError). */
export function isMalformedResult(error: unknown): boolean {
  return error instanceof Error && (error.name === "ZodError" || Array.isArray((error as { issues?: unknown }).issues));
}
