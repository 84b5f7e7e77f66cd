import { cellText, type ResultTable } from "@/lib/run-view/result-tables";

/** One table of a step's result, with real headers. */
export function ResultTableView({ table }: { table: ResultTable }) {
  const caption = [table.name, table.rowCount !== null ? `${table.rowCount} row${table.rowCount === 1 ? "" : "s"}` : null]
    .filter(Boolean)
    .join(" · ");
  const more = table.rowCount !== null && table.rowCount > table.rows.length;
  return (
    <div className="overflow-hidden rounded-lg border border-line">
      <div className="max-h-80 overflow-auto">
        <table className="w-full border-collapse text-left text-xs">
          <caption className="border-b border-line bg-surface-sunken px-3 py-1.5 text-left text-xs text-muted">
            {caption || "Table"}
            {more ? ` (first ${table.rows.length} shown)` : ""}
          </caption>
          <thead className="sticky top-0 bg-surface">
            <tr>
              {table.columns.map((column, index) => (
                <th key={`${column}-${index}`} scope="col" className="border-b border-line px-3 py-1.5 font-semibold text-foreground">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-line">
            {table.rows.length === 0 ? (
              <tr>
                <td colSpan={Math.max(1, table.columns.length)} className="px-3 py-2 text-muted">
                  No rows.
                </td>
              </tr>
            ) : (
              table.rows.map((row, rowIndex) => (
                <tr key={rowIndex} className="odd:bg-surface even:bg-surface-sunken/50">
                  {table.columns.map((_, columnIndex) => {
                    const value = row[columnIndex];
                    return (
                      <td
                        key={columnIndex}
                        className={`max-w-xs truncate px-3 py-1 font-mono ${typeof value === "number" ? "text-right tabular-nums" : ""} ${value === null || value === undefined ? "text-muted" : ""}`}
                        title={cellText(value)}
                      >
                        {value === null ? "null" : cellText(value)}
                      </td>
                    );
                  })}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
    </div>
  );
}
