import path from "node:path";
import { fileURLToPath } from "node:url";

/** A connection URL understood: which driver, and what to hand it. */
export type ParsedDsn =
  | { kind: "postgres"; connectionString: string }
  | { kind: "sqlite"; file: string };

export type DsnParse = { ok: true; dsn: ParsedDsn } | { ok: false; problem: string };

const EXPECTED = "expected postgresql://user:password@host:5432/database or sqlite:///absolute/path.db";

/**
 * Reads a database connection URL without ever repeating it in a message
 * (it may hold a password). Accepts `postgres://`, `postgresql://`,
 * SQLAlchemy's `postgresql+driver://` and `sqlite+driver://`, `sqlite:///abs/path`
 * (and SQLAlchemy's `sqlite:////abs/path`), `file:` URLs and absolute paths.
 *
 * @example
 *   parseDsn("postgresql+psycopg://app:s3cret@db:5432/sales") // { ok: true, dsn: { kind: "postgres", connectionString: "postgresql://app:s3cret@db:5432/sales" } }
 *   parseDsn("sqlite:///srv/data/app.db")                    // { ok: true, dsn: { kind: "sqlite", file: "/srv/data/app.db" } }
 *   parseDsn("mysql://root@db/app")                           // { ok: false, problem: "uses the scheme mysql, which this tool does not support (...)" }
 */
export function parseDsn(raw: string): DsnParse {
  const value = raw.trim();
  if (value === "") return { ok: false, problem: `is empty (${EXPECTED})` };
  if (path.isAbsolute(value) && !value.includes("://")) return sqliteFile(value);

  const schemeMatch = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(value);
  if (!schemeMatch) return { ok: false, problem: `is not a database connection URL (${EXPECTED})` };
  const scheme = schemeMatch[1]!.toLowerCase();
  const base = scheme.split("+")[0]!;
  const rest = value.slice(schemeMatch[0].length);

  if (base === "postgres" || base === "postgresql") return postgres(rest);
  if (base === "sqlite" || base === "sqlite3") return sqlite(rest);
  if (base === "file") return fileUrl(value);
  const known = ["mysql", "mariadb", "mssql", "sqlserver", "oracle", "mongodb", "redis"];
  const name = known.includes(base) ? base : "an unknown scheme";
  return {
    ok: false,
    problem: `uses ${name === base ? `the scheme ${base}` : name}, which this tool does not support: it connects to PostgreSQL and SQLite (${EXPECTED})`,
  };
}

function postgres(rest: string): DsnParse {
  if (!rest.startsWith("//")) return { ok: false, problem: `is not a database connection URL (${EXPECTED})` };
  const connectionString = `postgresql:${rest}`;
  let url: URL;
  try {
    url = new URL(connectionString);
  } catch {
    return {
      ok: false,
      problem: `is not a database connection URL: it does not parse; a password with @, : or / must be percent-encoded (${EXPECTED})`,
    };
  }
  // A socket directory may be given as ?host=/var/run/postgresql instead of a host name.
  if (url.hostname === "" && !url.searchParams.has("host")) {
    return { ok: false, problem: `is not a usable PostgreSQL URL: it names no host (${EXPECTED})` };
  }
  if (url.port !== "" && !/^\d+$/.test(url.port)) return { ok: false, problem: `has an invalid port (${EXPECTED})` };
  return { ok: true, dsn: { kind: "postgres", connectionString } };
}

function sqlite(rest: string): DsnParse {
  if (!rest.startsWith("//")) return { ok: false, problem: `is not a database connection URL (${EXPECTED})` };
  const location = rest.slice(2).split("?", 1)[0]!;
  if (location === "" || location === "/" || location === ":memory:" || location === "/:memory:") {
    return { ok: false, problem: "names an in-memory SQLite database, which starts empty and has nothing to read (expected sqlite:///absolute/path.db)" };
  }
  let decoded: string;
  try {
    decoded = decodeURIComponent(location);
  } catch {
    return { ok: false, problem: "has a malformed percent-encoding in its path (expected sqlite:///absolute/path.db)" };
  }
  // sqlite:///abs/path (one slash before the path) and SQLAlchemy's sqlite:////abs/path both mean /abs/path.
  if (!decoded.startsWith("/")) {
    return {
      ok: false,
      problem: "names a relative SQLite path, which would depend on where the server was started (expected sqlite:///absolute/path.db)",
    };
  }
  return sqliteFile(decoded);
}

function fileUrl(value: string): DsnParse {
  let file: string;
  try {
    file = fileURLToPath(value.split("?", 1)[0]!);
  } catch {
    return { ok: false, problem: "is not a usable file: URL (expected file:///absolute/path.db)" };
  }
  return sqliteFile(file);
}

function sqliteFile(file: string): DsnParse {
  if (file.includes("\0")) return { ok: false, problem: "contains a NUL byte" };
  if (!path.isAbsolute(file)) return { ok: false, problem: "names a relative SQLite path (expected sqlite:///absolute/path.db)" };
  return { ok: true, dsn: { kind: "sqlite", file: path.normalize(file) } };
}
