import { MAX_RESULT_CHARACTERS, truncateMiddle } from "../../shared/limits";
import { plural, renderTextTable, toJsonValue } from "../../shared/text-table";
import { MAX_QUERY_BYTES, type QueryOutcome } from "./session";

/**
 * The text and structured data of a query's rows, capped for the model.
 * `rows` are objects keyed by column, so a workflow reads `rows[0].name`; a
 * name that repeats (two `id`s from a join) is keyed `id_2`, `id_3`, … after
 * its first. `rowValues` holds the same rows as arrays in column order, for a
 * reader that goes by position.
 *
 * @example
 *   renderRows({ columns: [{ name: "who", type: "TEXT" }], rows: [["Ada"]], truncated: false }, 200).data
 *   // { columns: [...], rows: [{ who: "Ada" }], rowValues: [["Ada"]], rowCount: 1, truncated: false, limit: 200 }
 */
export function renderRows(outcome: QueryOutcome, limit: number): { text: string; data: Record<string, unknown> } {
  const rowValues = outcome.rows.map((row) => row.map(toJsonValue));
  const names = outcome.columns.map((column) => column.name);
  const keys = uniqueKeys(names);
  const rows = rowValues.map((row) => Object.fromEntries(keys.map((key, index) => [key, row[index] ?? null])));
  const counted = outcome.cutForSize?.counted;
  const summary = counted !== undefined
    ? `First ${plural(rowValues.length, "row")} of ${counted}${outcome.truncated ? ` (and more past the limit of ${limit})` : ""}: the rows after them were counted, not kept, since a query returns at most ${MAX_QUERY_BYTES / 1_000_000} MB. Select fewer or narrower columns, or fewer rows.`
    : outcome.truncated
      ? `First ${plural(rowValues.length, "row")} (the result has more; the limit is ${limit}). Add a WHERE, an aggregate or a LIMIT to narrow it, or raise \`limit\`.`
      : plural(rowValues.length, "row") + ".";
  const text = rowValues.length === 0 && names.length === 0 ? summary : `${summary}\n${renderTextTable(names, rowValues)}`;
  return {
    text: truncateMiddle(text, MAX_RESULT_CHARACTERS),
    data: {
      columns: outcome.columns,
      rows,
      rowValues,
      rowCount: rowValues.length,
      truncated: outcome.truncated || counted !== undefined,
      limit,
      // How many rows the result had up to the limit, when only the leading ones were kept for their size.
      ...(counted !== undefined ? { rowsCounted: counted } : {}),
    },
  };
}

/** Each column's key in a row object: its name, numbered from its second use on (`id`, `id_2`). */
function uniqueKeys(names: readonly string[]): string[] {
  const taken = new Set<string>();
  return names.map((name) => {
    let key = name;
    for (let number = 2; taken.has(key); number += 1) key = `${name}_${number}`;
    taken.add(key);
    return key;
  });
}
