import { MAX_RESULT_CHARACTERS, truncateMiddle } from "../../shared/limits";
import { plural, renderTextTable, toJsonValue } from "../../shared/text-table";
import type { QueryOutcome } from "./session";

/** The text and structured data of a query's rows, capped for the model. */
export function renderRows(outcome: QueryOutcome, limit: number): { text: string; data: Record<string, unknown> } {
  const rows = outcome.rows.map((row) => row.map(toJsonValue));
  const names = outcome.columns.map((column) => column.name);
  const summary = outcome.truncated
    ? `First ${plural(rows.length, "row")} (the result has more; the limit is ${limit}). Add a WHERE, an aggregate or a LIMIT to narrow it, or raise \`limit\`.`
    : plural(rows.length, "row") + ".";
  const text = rows.length === 0 && names.length === 0 ? summary : `${summary}\n${renderTextTable(names, rows)}`;
  return {
    text: truncateMiddle(text, MAX_RESULT_CHARACTERS),
    data: { columns: outcome.columns, rows, rowCount: rows.length, truncated: outcome.truncated, limit },
  };
}
