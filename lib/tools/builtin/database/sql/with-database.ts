// Opening a session on either engine; apart from session.ts (what both engines share) so the
// engines' sessions, which import that, are not imported back by it.
import type { ToolContext } from "../../../tool-context";
import { ToolResult } from "../../../tool-result";
import { parseDsn } from "./dsn";
import { DatabaseToolError, driverErrorKind, driverMessage, maskConnection, type DatabaseSession } from "./session";

/**
 * Opens a session for `dsn`, runs `work`, always closes it, and turns any
 * failure into a `ToolResult.error`. The framework has already resolved and
 * checked the DSN and masks it in whatever leaves; still, no message here
 * repeats it.
 */
export async function withDatabase(
  dsn: string,
  ctx: ToolContext,
  work: (session: DatabaseSession) => Promise<ToolResult>,
): Promise<ToolResult> {
  const parsed = parseDsn(dsn);
  if (!parsed.ok) {
    return ToolResult.error(`\`dsn\`: the connection URL ${parsed.problem}. Store it in Settings → Secrets and reference it as \${NAME}.`, { kind: "invalid-input" });
  }
  let session: DatabaseSession;
  try {
    if (parsed.dsn.kind === "postgres") {
      const { openPostgres } = await import("./postgres-session");
      session = await openPostgres(parsed.dsn.connectionString, ctx.signal);
    } else {
      const { openSqlite } = await import("./sqlite-session");
      session = await openSqlite(parsed.dsn.file, { signal: ctx.signal });
    }
  } catch (error) {
    if (DatabaseToolError.isInstance(error)) return ToolResult.error(maskConnection(error.message, parsed.dsn), { kind: error.kind });
    const engine = parsed.dsn.kind === "postgres" ? "PostgreSQL" : "SQLite";
    return ToolResult.error(
      `Could not connect to the ${engine} database: ${maskConnection(driverMessage(error), parsed.dsn)}. Check that the server is running and that the connection URL stored in Settings → Secrets is right.`,
      { kind: driverErrorKind(error) },
    );
  }
  try {
    return await work(session);
  } catch (error) {
    if (ctx.signal.aborted) return ToolResult.error("The database call was cancelled.", { kind: "cancelled" });
    if (DatabaseToolError.isInstance(error)) return ToolResult.error(maskConnection(error.message, parsed.dsn), { kind: error.kind });
    return ToolResult.error(`The ${session.engine} database reported an error: ${maskConnection(driverMessage(error), parsed.dsn)}.`, {
      kind: driverErrorKind(error),
    });
  } finally {
    await session.close().catch(() => undefined);
  }
}
