import { describe, expect, it } from "vitest";
import { parseDsn } from "./dsn";

describe("parseDsn", () => {
  it("accepts PostgreSQL URLs, dropping a SQLAlchemy +driver", () => {
    expect(parseDsn("postgres://app:pw@db:5432/sales")).toEqual({
      ok: true,
      dsn: { kind: "postgres", connectionString: "postgresql://app:pw@db:5432/sales" },
    });
    expect(parseDsn("postgresql+psycopg://app@db/sales?sslmode=require")).toEqual({
      ok: true,
      dsn: { kind: "postgres", connectionString: "postgresql://app@db/sales?sslmode=require" },
    });
    expect(parseDsn("postgresql:///sales?host=/var/run/postgresql").ok).toBe(true);
  });

  it("accepts SQLite URLs, file: URLs and absolute paths", () => {
    const file = { ok: true, dsn: { kind: "sqlite", file: "/srv/data/app.db" } };
    expect(parseDsn("sqlite:///srv/data/app.db")).toEqual(file);
    expect(parseDsn("sqlite:////srv/data/app.db")).toEqual(file);
    expect(parseDsn("sqlite+pysqlite:///srv/data/app.db?mode=ro")).toEqual(file);
    expect(parseDsn("file:///srv/data/app.db")).toEqual(file);
    expect(parseDsn("file:/srv/data/app.db")).toEqual(file);
    expect(parseDsn("/srv/data/app.db")).toEqual(file);
    expect(parseDsn("sqlite:///srv/my%20data/app.db")).toEqual({ ok: true, dsn: { kind: "sqlite", file: "/srv/my data/app.db" } });
  });

  it("refuses what it cannot use, without repeating the value", () => {
    const cases = [
      "hunter2-secret",
      "mysql://root:hunter2-secret@db/app",
      "postgresql://user:hunter2-secret@/db",
      "sqlite://",
      "sqlite://:memory:",
      "sqlite://relative/hunter2-secret.db",
      "postgresql:hunter2-secret",
      "",
    ];
    for (const value of cases) {
      const parsed = parseDsn(value);
      expect(parsed.ok, value).toBe(false);
      if (!parsed.ok) expect(parsed.problem).not.toContain("hunter2");
    }
    const mysql = parseDsn("mysql://root@db/app");
    expect(!mysql.ok && mysql.problem).toContain("the scheme mysql, which this tool does not support");
  });
});
