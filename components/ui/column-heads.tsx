import type { ReactNode } from "react";

/**
 * A data table's header row in the studio's look (small caps on the sunken surface), one column head per entry:
 * DataTable draws it for the tables of evaluations, comparisons and model prices rather than each spelling it out.
 */
export function ColumnHeads({ columns }: { columns: readonly ReactNode[] }) {
  return (
    <thead className="bg-surface-sunken text-left text-xs font-semibold uppercase tracking-wide text-muted">
      <tr>
        {columns.map((column, index) => (
          <th key={index} scope="col" className="px-3 py-2">
            {column}
          </th>
        ))}
      </tr>
    </thead>
  );
}
