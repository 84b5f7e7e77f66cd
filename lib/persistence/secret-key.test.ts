import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, readFileSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { EnvironmentError } from "@/lib/env";
import { openDatabase, type StudioDatabase } from "./database";
import { SecretKeyError, SecretKeyMismatchError } from "./errors";
import { openSecretBox, SECRET_KEY_CHECK, secretContext } from "./secret-key";
import { createSqliteDatabase, makeTempFolder } from "./temp-database";

describe("secret key", () => {
  const cleanups: Array<() => void | Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function setup(): Promise<{ database: StudioDatabase; dataDir: string; keyFile: string }> {
    const { folder, cleanup } = makeTempFolder();
    cleanups.push(cleanup);
    const dataDir = path.join(folder, "data");
    const database = openDatabase(await createSqliteDatabase(path.join(dataDir, "studio.db")));
    cleanups.push(() => database.$disconnect());
    return { database, dataDir, keyFile: path.join(dataDir, "secret.key") };
  }

  it("creates the key file with mode 0600 on first start and stores the key check", async () => {
    const { database, dataDir, keyFile } = await setup();
    const box = await openSecretBox(database, { environment: { STUDIO_DATA_DIR: dataDir } });
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(keyFile, "utf8").trim(), "base64")).toHaveLength(32);
    const check = await database.meta.findUniqueOrThrow({ where: { key: SECRET_KEY_CHECK } });
    expect(check.value).toMatch(/^v1:/);

    // The next start reads the same file and passes the check.
    const again = await openSecretBox(database, { environment: { STUDIO_DATA_DIR: dataDir } });
    expect(again.open(box.seal("x", "c"), "c")).toBe("x");
  });

  it("refuses a key file that others can read, saying the chmod to run", async () => {
    const { database, dataDir, keyFile } = await setup();
    await openSecretBox(database, { environment: { STUDIO_DATA_DIR: dataDir } });
    chmodSync(keyFile, 0o644);
    await expect(openSecretBox(database, { environment: { STUDIO_DATA_DIR: dataDir } })).rejects.toThrow(SecretKeyError);
    await expect(openSecretBox(database, { environment: { STUDIO_DATA_DIR: dataDir } })).rejects.toThrow(`chmod 600 ${keyFile}`);
  });

  it("detects a second key and refuses to start rather than lose the secrets", async () => {
    const { database, dataDir } = await setup();
    const first = randomBytes(32).toString("base64");
    await openSecretBox(database, { environment: { STUDIO_DATA_DIR: dataDir, STUDIO_SECRET_KEY: first } });

    const second = randomBytes(32).toString("base64");
    const attempt = openSecretBox(database, { environment: { STUDIO_DATA_DIR: dataDir, STUDIO_SECRET_KEY: second } });
    await expect(attempt).rejects.toThrow(SecretKeyMismatchError);
    await expect(attempt).rejects.toThrow(/does not match the secrets stored.*refuses to start rather than lose them.*STUDIO_SECRET_KEY/);
    // The check was not overwritten: the first key still opens.
    await openSecretBox(database, { environment: { STUDIO_DATA_DIR: dataDir, STUDIO_SECRET_KEY: first } });
  });

  it("does not make a new key file over stored secrets", async () => {
    const { database, dataDir, keyFile } = await setup();
    const box = await openSecretBox(database, { environment: { STUDIO_DATA_DIR: dataDir } });
    await database.secret.create({ data: { name: "A", ciphertext: box.seal("a", secretContext("A")) } });
    rmSync(keyFile);

    await expect(openSecretBox(database, { environment: { STUDIO_DATA_DIR: dataDir } })).rejects.toThrow(
      /key file .*secret\.key is missing.*restore the key file/,
    );
    expect(existsSync(keyFile)).toBe(false);
  });

  it("checks against a stored secret when the check row is gone", async () => {
    const { database, dataDir } = await setup();
    const box = await openSecretBox(database, { environment: { STUDIO_DATA_DIR: dataDir } });
    await database.secret.create({ data: { name: "A", ciphertext: box.seal("a", secretContext("A")) } });
    await database.meta.delete({ where: { key: SECRET_KEY_CHECK } });
    const other = randomBytes(32).toString("base64");
    await expect(openSecretBox(database, { environment: { STUDIO_DATA_DIR: dataDir, STUDIO_SECRET_KEY: other } })).rejects.toThrow(
      SecretKeyMismatchError,
    );
  });

  it("refuses a STUDIO_SECRET_KEY of the wrong length, naming it", async () => {
    const { database, dataDir } = await setup();
    const short = randomBytes(16).toString("base64");
    const attempt = openSecretBox(database, { environment: { STUDIO_DATA_DIR: dataDir, STUDIO_SECRET_KEY: short } });
    await expect(attempt).rejects.toSatisfy(EnvironmentError.isInstance);
    await expect(attempt).rejects.toThrow(/STUDIO_SECRET_KEY: expected the base64 of 32 random bytes/);
  });
});
