import { z } from "zod";
import { defineOperation } from "../../../../operation";
import { ToolResult } from "../../../../tool-result";
import { checkReadOnlySql } from "../read-only-sql";
import { DsnField } from "../dsn-field";
import { renderRows } from "../render";
import { withDatabase } from "../with-database";

export const DEFAULT_QUERY_LIMIT = 200;
export const MAX_QUERY_LIMIT = 1_000;

const QueryArgs = z.object({
  dsn: DsnField,
  sql: z
    .string()
    .min(1, "write the query to run")
    .describe("One read-only SQL statement: SELECT, WITH … SELECT, EXPLAIN, SHOW or DESCRIBE. Anything that writes is refused."),
  limit: z
    .number()
    .int()
    .min(1)
    .max(MAX_QUERY_LIMIT, `at most ${MAX_QUERY_LIMIT} rows are returned; aggregate or filter in SQL instead`)
    .default(DEFAULT_QUERY_LIMIT)
    .describe(`The most rows to return (default ${DEFAULT_QUERY_LIMIT}, at most ${MAX_QUERY_LIMIT}); the result says when there were more.`),
});

/** Runs one read-only statement and returns its first rows. */
export const queryOperation = defineOperation({
  title: "Run a query",
  description: "Run one read-only SQL statement (SELECT, WITH, EXPLAIN, SHOW, DESCRIBE) and return its columns and first rows, each row an object keyed by column name (rows[0].name; the same rows as arrays in rowValues).",
  inputModel: QueryArgs,
  capabilities: ["db.query"],
  readOnly: true,
  async execute(args, ctx) {
    // Refused before connecting: a write never reaches the server, read-only transaction or not.
    const checked = checkReadOnlySql(args.sql);
    if (!checked.ok) return ToolResult.error(checked.problem);
    return withDatabase(args.dsn, ctx, async (session) => {
      const outcome = await session.query(checked.statement, checked.keyword, args.limit);
      const { text, data } = renderRows(outcome, args.limit);
      return ToolResult.ok(text, data);
    });
  },
});
