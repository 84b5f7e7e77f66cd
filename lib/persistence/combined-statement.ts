import type { Write } from "./run-commit-writes";

/**
 * PostgreSQL: several writes as one statement, each a common table expression
 * of it, for one round trip where a transaction of them would take one per
 * write plus BEGIN and COMMIT. A statement is atomic: all of it takes effect
 * or none does. Foreign keys are checked at the end of the statement, so a
 * row may name one an earlier write of it inserts.
 *
 * A data-modifying write (INSERT, UPDATE, DELETE without RETURNING) runs
 * whether or not anything reads it; a SELECT (a `pg_notify`) runs because the
 * final SELECT counts its rows. Writes use `?` placeholders (numbered here)
 * and must not hold a WITH of their own (PostgreSQL allows data-modifying
 * CTEs only at the top level).
 *
 * A write that must change a row (`mustChange`: the run's update fenced by
 * its drive) returns what it changed, counted first in the final SELECT (so
 * it runs before the writes nobody reads); `unchanged` reads the answer's row
 * and gives the message of the first such write that changed nothing, for the
 * caller to throw, which undoes the statement with its transaction.
 */
export interface CombinedStatement {
  text: string;
  values: unknown[];
  /** The `mustChange` message of a write that changed no row, from the statement's answer; null when all did. */
  unchanged(row: Record<string, unknown> | undefined): string | null;
}

export function combineWrites(writes: readonly Write[]): CombinedStatement {
  let placeholder = 0;
  const values: unknown[] = [];
  const parts: string[] = [];
  const selected: string[] = [];
  const mustChange: { name: string; column: string; message: string }[] = [];
  writes.forEach((write, index) => {
    if (/^\s*WITH\b/i.test(write.sql)) throw new Error("combineWrites: a write with its own WITH cannot be a part of a statement");
    const name = `write_${index}`;
    const sql = write.sql.replace(/\?/g, () => `$${++placeholder}`);
    parts.push(`"${name}" AS (${write.mustChange ? `${sql} RETURNING 1` : sql})`);
    values.push(...write.values);
    if (write.mustChange) mustChange.push({ name, column: `changed_${index}`, message: write.mustChange });
    else if (/^\s*SELECT\b/i.test(write.sql)) selected.push(`(SELECT count(*) FROM "${name}")`);
  });
  const done = selected.length === 0 ? "1" : selected.join(" + ");
  const counts = mustChange.map(({ name, column }) => `(SELECT count(*) FROM "${name}") AS "${column}", `).join("");
  return {
    text: `WITH ${parts.join(",\n")}\nSELECT ${counts}${done} AS "done"`,
    values,
    unchanged: (row) => mustChange.find(({ column }) => Number(row?.[column] ?? 0) === 0)?.message ?? null,
  };
}
