import { type DiffLine, type DiffRow, FILE_LINE_MARKING, hasHiddenCharacters } from "@/lib/tools/contracts";

/** A change longer than this many rows is shown folded: its head and tail, and a control for the rest. */
export const FOLD_AT = 120;
const HEAD_ROWS = 40;
const TAIL_ROWS = 40;

export interface FoldedRows {
  head: DiffRow[];
  /** Null when nothing is folded away. */
  folded: { rows: DiffRow[]; lines: number; added: number; removed: number; flagged: DiffLine[] } | null;
  tail: DiffRow[];
}

/**
 * The rows of a file change as the card first shows them: all of a short
 * change; the head and tail of a long one, with what is folded away counted
 * and its lines that hold hidden characters listed, so a fold never hides
 * them.
 *
 * @example
 *   foldDiffRows(rows).folded?.lines // 520 lines behind "520 lines not shown"
 */
export function foldDiffRows(rows: readonly DiffRow[], foldAt = FOLD_AT): FoldedRows {
  if (rows.length <= foldAt) return { head: [...rows], folded: null, tail: [] };
  const middle = rows.slice(HEAD_ROWS, rows.length - TAIL_ROWS);
  const lines = middle.filter(isLine);
  // Lines the server already left out (a change too large to store) are folded too: count them and keep their flags.
  const omitted = middle.flatMap((row) => (row.kind === "omitted" ? [row] : []));
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
  return {
    head: rows.slice(0, HEAD_ROWS),
    folded: {
      rows: middle,
      lines: lines.length + sum(omitted.map((row) => row.lines)),
      added: lines.filter((line) => line.kind === "added").length + sum(omitted.map((row) => row.added)),
      removed: lines.filter((line) => line.kind === "removed").length + sum(omitted.map((row) => row.removed)),
      flagged: [...lines.filter((line) => hasHiddenCharacters(line.text, FILE_LINE_MARKING)), ...omitted.flatMap((row) => row.flagged)],
    },
    tail: rows.slice(rows.length - TAIL_ROWS),
  };
}

export function isLine(row: DiffRow): row is DiffLine {
  return row.kind === "added" || row.kind === "removed" || row.kind === "context";
}
