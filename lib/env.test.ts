import { describe, expect, it } from "vitest";
import { EnvironmentError, readEnvironment } from "./env";

describe("readEnvironment", () => {
  it("applies defaults and treats empty values as unset", () => {
    const environment = readEnvironment({ PORT: "", STUDIO_DATA_DIR: "  " });
    expect(environment).toMatchObject({ PORT: 3000, HOST: "127.0.0.1" });
    expect(environment.STUDIO_DATA_DIR).toBeUndefined();
    expect(environment.DATABASE_URL).toBeUndefined();
  });

  it("parses given values", () => {
    const key = Buffer.alloc(32, 7).toString("base64");
    const environment = readEnvironment({ PORT: "8080", HOST: "0.0.0.0", DATABASE_URL: "file:/tmp/a.db", STUDIO_SECRET_KEY: key });
    expect(environment).toMatchObject({ PORT: 8080, HOST: "0.0.0.0", DATABASE_URL: "file:/tmp/a.db", STUDIO_SECRET_KEY: key });
  });

  it("names each malformed variable", () => {
    let caught: unknown;
    try {
      readEnvironment({ PORT: "eighty", DATABASE_URL: "mysql://x", STUDIO_SECRET_KEY: "c2hvcnQ=" });
    } catch (error) {
      caught = error;
    }
    expect(EnvironmentError.isInstance(caught)).toBe(true);
    const error = caught as EnvironmentError;
    expect(error.variables.sort()).toEqual(["DATABASE_URL", "PORT", "STUDIO_SECRET_KEY"]);
    expect(error.message).toContain("STUDIO_SECRET_KEY: expected the base64 of 32 random bytes");
    expect(error.message).toContain("PORT:");
    expect(error.message).toContain("DATABASE_URL: expected a SQLite file URL");
  });

  it("refuses a port out of range and an in-memory database", () => {
    expect(() => readEnvironment({ PORT: "70000" })).toThrow(/PORT: expected a port from 1 to 65535/);
    expect(() => readEnvironment({ DATABASE_URL: "file::memory:" })).toThrow(/DATABASE_URL/);
  });

  it("reads single sign-on: its role map, and refuses a plain-http provider elsewhere or one without the client's id and secret", () => {
    const environment = readEnvironment({
      OIDC_ISSUER: "https://login.example.com/realms/team",
      OIDC_CLIENT_ID: "studio",
      OIDC_CLIENT_SECRET: "s3cret",
      OIDC_ROLE_MAP: "studio admins=admin, builders=editor ,",
    });
    expect(environment.OIDC_ROLE_MAP).toEqual([
      { group: "studio admins", role: "admin" },
      { group: "builders", role: "editor" },
    ]);
    expect(environment.OIDC_GROUPS_CLAIM).toBe("groups");
    expect(readEnvironment({ OIDC_ISSUER: "http://127.0.0.1:4000", OIDC_CLIENT_ID: "a", OIDC_CLIENT_SECRET: "b" }).OIDC_ISSUER).toBe("http://127.0.0.1:4000");
    expect(() => readEnvironment({ OIDC_ISSUER: "http://login.example.com", OIDC_CLIENT_ID: "a", OIDC_CLIENT_SECRET: "b" })).toThrow(/OIDC_ISSUER: expected https/);
    expect(() => readEnvironment({ OIDC_ISSUER: "https://login.example.com" })).toThrow(/OIDC_CLIENT_ID: expected a value.*OIDC_CLIENT_SECRET: expected a value/);
    expect(() => readEnvironment({ OIDC_ROLE_MAP: "builders=superuser" })).toThrow(/OIDC_ROLE_MAP: expected group=role pairs/);
    expect(() => readEnvironment({ OIDC_DEFAULT_ROLE: "root" })).toThrow(/OIDC_DEFAULT_ROLE/);
  });
});
