/** Statements that only read; everything else is refused before it reaches a driver. */
export const READ_ONLY_STATEMENTS = ["SELECT", "WITH", "EXPLAIN", "SHOW", "DESCRIBE"] as const;

/**
 * Words that change data or session state. They are refused anywhere in the
 * query, not just at its start: `WITH gone AS (DELETE ...) SELECT ...` and
 * `EXPLAIN ANALYZE DELETE ...` both write, and `SELECT ... INTO` creates a table.
 * `FOR UPDATE` is refused with them, as it locks rows.
 */
const WRITING_WORDS = [
  "INSERT", "UPDATE", "DELETE", "MERGE", "UPSERT", "DROP", "CREATE", "ALTER", "TRUNCATE", "GRANT", "REVOKE",
  "COPY", "ATTACH", "DETACH", "PRAGMA", "VACUUM", "REINDEX", "CLUSTER", "CALL", "DO", "LOCK", "INTO", "REFRESH",
  "LISTEN", "NOTIFY", "UNLISTEN", "DISCARD", "RESET", "LOAD", "IMPORT", "PREPARE", "EXECUTE", "DEALLOCATE",
  "BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE", "CHECKPOINT", "SECURITY",
];
const WRITING_PATTERN = new RegExp(`\\b(${WRITING_WORDS.join("|")})\\b`, "i");

export type ReadOnlyCheck =
  | { ok: true; statement: string; keyword: (typeof READ_ONLY_STATEMENTS)[number] }
  | { ok: false; problem: string };

/**
 * Accepts one read-only statement and returns it without its trailing
 * semicolon and comments; refuses anything else with a message for the
 * model. Comments, string literals, quoted identifiers and PostgreSQL
 * dollar-quoted strings are masked first, so words inside them neither hide
 * nor trigger anything.
 *
 * This is the first of three guards: PostgreSQL queries also run in a
 * `READ ONLY` transaction and SQLite files are opened read-only.
 *
 * @example
 *   checkReadOnlySql("select * from orders; -- all")  // { ok: true, statement: "select * from orders", keyword: "SELECT" }
 *   checkReadOnlySql("DELETE FROM orders")            // { ok: false, problem: "... starts with DELETE ..." }
 */
export function checkReadOnlySql(sql: string): ReadOnlyCheck {
  const masked = maskSql(sql);
  if (typeof masked !== "string") return { ok: false, problem: masked.problem };

  let end = masked.length;
  for (;;) {
    while (end > 0 && /\s/.test(masked[end - 1]!)) end -= 1;
    if (end > 0 && masked[end - 1] === ";") end -= 1;
    else break;
  }
  const body = masked.slice(0, end);
  if (body.trim() === "") return { ok: false, problem: "`sql`: the query is empty. Write one SELECT statement." };
  if (body.includes(";")) {
    return {
      ok: false,
      problem: "`sql`: only one statement runs per call, and this text holds several (separated by `;`). Send them one at a time.",
    };
  }

  const first = /^[\s(]*([A-Za-z]+)/.exec(body)?.[1]?.toUpperCase() ?? "";
  const keyword = READ_ONLY_STATEMENTS.find((allowed) => allowed === first);
  if (!keyword) {
    const what = first === "" ? "does not start with a keyword" : `starts with ${first}`;
    return {
      ok: false,
      problem: `\`sql\`: only read-only queries run here (a single ${READ_ONLY_STATEMENTS.join(", ")} statement); this one ${what}, so it was not run.`,
    };
  }
  const writing = WRITING_PATTERN.exec(body)?.[1]?.toUpperCase();
  if (writing) {
    return {
      ok: false,
      problem: `\`sql\`: the query contains ${writing}, which changes data or locks rows; only read-only queries run here, so it was not run. If ${writing} is the name of a column or table, put it in double quotes ("${writing.toLowerCase()}").`,
    };
  }
  return { ok: true, statement: sql.slice(0, end), keyword };
}

/**
 * `sql` with the same length and line breaks, but comments blanked and the
 * insides of literals and quoted identifiers blanked, so offsets still match.
 */
function maskSql(sql: string): string | { problem: string } {
  let out = "";
  let index = 0;
  const blank = (text: string) => text.replace(/[^\n]/g, " ");
  while (index < sql.length) {
    const character = sql[index]!;
    const next = sql[index + 1];
    if (character === "-" && next === "-") {
      const close = sql.indexOf("\n", index);
      const stop = close === -1 ? sql.length : close;
      out += blank(sql.slice(index, stop));
      index = stop;
    } else if (character === "/" && next === "*") {
      // PostgreSQL block comments nest.
      let depth = 0;
      let cursor = index;
      while (cursor < sql.length) {
        if (sql.startsWith("/*", cursor)) {
          depth += 1;
          cursor += 2;
        } else if (sql.startsWith("*/", cursor)) {
          depth -= 1;
          cursor += 2;
          if (depth === 0) break;
        } else cursor += 1;
      }
      if (depth !== 0) return { problem: "`sql`: a /* comment is never closed. Close it with */ or remove it." };
      out += blank(sql.slice(index, cursor));
      index = cursor;
    } else if (character === "'" || character === '"' || character === "`") {
      const backslashEscapes = character === "'" && /[eE]/.test(sql[index - 1] ?? "") && !/\w/.test(sql[index - 2] ?? "");
      let cursor = index + 1;
      for (;;) {
        if (cursor >= sql.length) {
          return { problem: `\`sql\`: a ${character === "'" ? "string" : "quoted name"} opened with ${character} is never closed.` };
        }
        const current = sql[cursor]!;
        if (backslashEscapes && current === "\\") cursor += 2;
        else if (current === character && sql[cursor + 1] === character) cursor += 2;
        else if (current === character) break;
        else cursor += 1;
      }
      out += character + blank(sql.slice(index + 1, cursor)) + character;
      index = cursor + 1;
    } else if (character === "$" && !/\w/.test(sql[index - 1] ?? "")) {
      const tag = /^\$(?:[A-Za-z_][A-Za-z0-9_]*)?\$/.exec(sql.slice(index, index + 80))?.[0];
      if (!tag) {
        out += character;
        index += 1;
        continue;
      }
      const close = sql.indexOf(tag, index + tag.length);
      if (close === -1) return { problem: `\`sql\`: a dollar-quoted string opened with ${tag} is never closed.` };
      out += tag + blank(sql.slice(index + tag.length, close)) + tag;
      index = close + tag.length;
    } else {
      out += character;
      index += 1;
    }
  }
  return out;
}
