import type { ReactNode } from "react";
import { ColumnHeads } from "./column-heads";

interface DataTableProps {
  /** The table's name for screen readers; the page around it says it to everyone else. */
  caption?: string;
  /** One column head each, in order. */
  columns: readonly ReactNode[];
  testId?: string;
  /** The rows. */
  children: ReactNode;
}

/**
 * A data table in the studio's look: a framed box that scrolls sideways when the table is wider than the page, the
 * column heads, and rows divided by lines. The evaluations, evaluation and comparison tables share it rather than
 * each spelling out the same frame.
 */
export function DataTable({ caption, columns, testId, children }: DataTableProps) {
  return (
    <div className="overflow-x-auto rounded-lg border border-line bg-surface shadow-card">
      <table className="w-full text-sm" data-testid={testId}>
        {caption ? <caption className="sr-only">{caption}</caption> : null}
        <ColumnHeads columns={columns} />
        <tbody className="divide-y divide-line">{children}</tbody>
      </table>
    </div>
  );
}
