import { readFileSync, existsSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ZodError } from "zod";
import { SecretRefused } from "@/lib/tools/secrets";
import { openDatabase, type StudioDatabase } from "./database";
import { ConflictError, NotFoundError } from "./errors";
import {
  createSecret,
  deleteSecret,
  listSecrets,
  replaceSecret,
  resolveSecret,
  secretResolver,
} from "./secret-store";
import { createSqliteDatabase, makeTempFolder } from "./temp-database";

describe("secret store", () => {
  let database: StudioDatabase;
  let filePath: string;
  let cleanup: () => void;

  beforeEach(async () => {
    const temp = makeTempFolder();
    cleanup = temp.cleanup;
    // The store reads the key the way the studio does: the key file in the data folder.
    vi.stubEnv("STUDIO_DATA_DIR", path.join(temp.folder, "data"));
    vi.stubEnv("STUDIO_SECRET_KEY", "");
    filePath = path.join(temp.folder, "data", "studio.db");
    database = openDatabase(await createSqliteDatabase(filePath));
  });
  afterEach(async () => {
    await database.$disconnect();
    vi.unstubAllEnvs();
    cleanup();
  });

  it("creates, lists (metadata only), replaces, resolves and deletes", async () => {
    const created = await createSecret({ name: "DB_URL", value: "postgres://u:p@h/db", description: "Main DB", tool: "sql" }, database);
    expect(created).toEqual({ name: "DB_URL", description: "Main DB", tool: "sql", workflows: null, createdAt: expect.any(Date), updatedAt: expect.any(Date) });
    await createSecret({ name: "API_KEY", value: "k-1" }, database);

    const listed = await listSecrets(database);
    expect(listed.map((secret) => secret.name)).toEqual(["API_KEY", "DB_URL"]);
    expect(JSON.stringify(listed)).not.toContain("postgres://");
    expect(Object.keys(listed[0]!).sort()).toEqual(["createdAt", "description", "name", "tool", "updatedAt", "workflows"]);

    expect(await resolveSecret("DB_URL", database)).toBe("postgres://u:p@h/db");
    await replaceSecret("DB_URL", { value: "postgres://u:new@h/db" }, database);
    expect(await resolveSecret("DB_URL", database)).toBe("postgres://u:new@h/db");
    const described = await replaceSecret("DB_URL", { description: "Replica", tool: null }, database);
    expect(described).toMatchObject({ description: "Replica", tool: null });
    expect(await resolveSecret("DB_URL", database)).toBe("postgres://u:new@h/db");

    const resolve = secretResolver(database);
    expect(await resolve("API_KEY")).toBe("k-1");
    expect(await resolve("MISSING")).toBeUndefined();
    expect(await resolve("not a name")).toBeUndefined();

    await deleteSecret("API_KEY", database);
    expect(await resolveSecret("API_KEY", database)).toBeUndefined();
  });

  it("gives a secret limited to workflows to their steps only, and to uses outside any workflow", async () => {
    await createSecret({ name: "BILLING_DB", value: "postgres://b@h/billing", workflows: ["wf-billing", "wf-billing"] }, database);
    expect((await listSecrets(database)).find((secret) => secret.name === "BILLING_DB")?.workflows).toEqual(["wf-billing"]);
    const resolve = secretResolver(database);
    expect(await resolve("BILLING_DB", { workflowId: "wf-billing" })).toBe("postgres://b@h/billing");
    await expect(resolve("BILLING_DB", { workflowId: "wf-other" })).rejects.toThrow(SecretRefused);
    await expect(resolve("BILLING_DB", { workflowId: "wf-other" })).rejects.toThrow(/^is limited to other workflows/);
    // An MCP server's settings, say: a use of no workflow's run.
    expect(await resolve("BILLING_DB")).toBe("postgres://b@h/billing");
    await replaceSecret("BILLING_DB", { workflows: null }, database);
    expect(await resolve("BILLING_DB", { workflowId: "wf-other" })).toBe("postgres://b@h/billing");
    await expect(createSecret({ name: "NOWHERE", value: "x", workflows: [] }, database)).rejects.toThrow(/choose at least one workflow/);
  });

  it("answers typed errors: a taken name, an unknown name, a bad body", async () => {
    await createSecret({ name: "TOKEN", value: "one" }, database);
    const duplicate = createSecret({ name: "TOKEN", value: "two" }, database);
    await expect(duplicate).rejects.toSatisfy(ConflictError.isInstance);
    await expect(duplicate).rejects.toThrow(/A secret named TOKEN already exists/);
    expect(await resolveSecret("TOKEN", database)).toBe("one");

    await expect(replaceSecret("NOPE", { value: "x" }, database)).rejects.toSatisfy(NotFoundError.isInstance);
    await expect(deleteSecret("NOPE", database)).rejects.toSatisfy(
      (error) => NotFoundError.isInstance(error) && error.kind === "secret" && error.id === "NOPE",
    );
    await expect(createSecret({ name: "lower_case", value: "x" }, database)).rejects.toThrow(ZodError);
    await expect(createSecret({ name: "EMPTY", value: "" }, database)).rejects.toThrow(/enter the secret's value/);
    await expect(createSecret({ name: "LONG", value: "x".repeat(10_001) }, database)).rejects.toThrow(/at most 10000/);
  });

  it("never writes the plaintext to the database files", async () => {
    const planted = "planted-plaintext-5f3a9c1e-needle";
    await createSecret({ name: "PLANTED", value: planted }, database);
    await replaceSecret("PLANTED", { value: `${planted}-2` }, database);
    expect(await resolveSecret("PLANTED", database)).toBe(`${planted}-2`);

    const files = [filePath, `${filePath}-wal`].filter((file) => existsSync(file));
    expect(files).toContain(`${filePath}-wal`);
    for (const file of files) {
      const bytes = readFileSync(file);
      expect(bytes.includes(Buffer.from(planted, "utf8"))).toBe(false);
      expect(bytes.includes(Buffer.from(planted, "utf16le"))).toBe(false);
    }
    // The name is not secret and is stored in the clear, which shows the search reads the right files.
    expect(files.some((file) => readFileSync(file).includes(Buffer.from("PLANTED")))).toBe(true);
  });
});
