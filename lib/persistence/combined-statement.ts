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
 * CTEs only at the top level), nor `mustChange` (a CTE's changed rows are not
 * reported).
 */
export function combineWrites(writes: readonly Write[]): { text: string; values: unknown[] } {
  let placeholder = 0;
  const values: unknown[] = [];
  const parts: string[] = [];
  const selected: string[] = [];
  writes.forEach((write, index) => {
    if (write.mustChange) throw new Error("combineWrites: a write that must change a row cannot be a part of a statement");
    if (/^\s*WITH\b/i.test(write.sql)) throw new Error("combineWrites: a write with its own WITH cannot be a part of a statement");
    const name = `write_${index}`;
    parts.push(`"${name}" AS (${write.sql.replace(/\?/g, () => `$${++placeholder}`)})`);
    values.push(...write.values);
    if (/^\s*SELECT\b/i.test(write.sql)) selected.push(`(SELECT count(*) FROM "${name}")`);
  });
  const done = selected.length === 0 ? "1" : selected.join(" + ");
  return { text: `WITH ${parts.join(",\n")}\nSELECT ${done} AS "done"`, values };
}
