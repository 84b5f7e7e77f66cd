import { postgresStatements, sqliteConnection, type StudioDatabase } from "./database";
import { postgresPlaceholders } from "./postgres-statements";
import { statement } from "./prepared";

/** A statement whose text differs by database (a cast, a function one of them lacks), both in SQLite's `?` form. */
export interface DialectSql {
  sqlite: string;
  postgresql: string;
}

/**
 * The rows of a read on a hot path (written once, in SQLite's `?` form, or once per database), run
 * as a prepared statement on the client's SQLite connection or on its
 * PostgreSQL statement pool; null for a client that has neither (one not
 * opened by `openDatabase`), which then asks Prisma. Integers read as
 * numbers, DateTimes as the text each database keeps (see `readDate`).
 */
export async function preparedRows<Row>(client: StudioDatabase, sql: string | DialectSql, values: unknown[]): Promise<Row[] | null> {
  const connection = await sqliteConnection(client);
  if (connection) return statement(connection.database, typeof sql === "string" ? sql : sql.sqlite).all(...values) as Row[];
  const statements = postgresStatements(client);
  if (statements) return (await statements.run<Row>(postgresPlaceholders(typeof sql === "string" ? sql : sql.postgresql), values)).rows;
  return null;
}

/**
 * A write on the same paths as `preparedRows` (a statement that returns no
 * rows); false for a client with neither, which then asks Prisma. For values
 * Prisma would carry through its query compiler's memory, such as large bytes.
 */
export async function preparedWrite(client: StudioDatabase, sql: string, values: unknown[]): Promise<boolean> {
  const connection = await sqliteConnection(client);
  if (connection) {
    statement(connection.database, sql).run(...values);
    return true;
  }
  const statements = postgresStatements(client);
  if (statements) {
    await statements.run(postgresPlaceholders(sql), values);
    return true;
  }
  return false;
}
