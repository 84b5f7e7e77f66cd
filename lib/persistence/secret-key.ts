import { randomBytes } from "node:crypto";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { readEnvironment } from "@/lib/env";
import { dataFolder } from "./data-folder";
import type { StudioDatabase } from "./database";
import { SecretDecryptionError, SecretKeyError, SecretKeyMismatchError } from "./errors";
import { createSecretBox, SECRET_KEY_BYTES, type SecretBox } from "./secret-box";

type EnvironmentSource = Readonly<Record<string, string | undefined>>;

/** The Meta row holding a known text sealed with the key, to notice a changed key at start. */
export const SECRET_KEY_CHECK = "secret_key_check";
const CHECK_PLAINTEXT = "neurosurfer-studio secret key check v1";
const CHECK_CONTEXT = `meta:${SECRET_KEY_CHECK}`;

export const SECRET_KEY_FILE = "secret.key";

export interface SecretKeyOptions {
  /** Default `process.env`: STUDIO_SECRET_KEY, STUDIO_DATA_DIR. */
  environment?: EnvironmentSource;
}

interface LoadedKey {
  key: Buffer;
  /** Where the key came from, for messages. */
  source: string;
}

/** The Meta row `secret_key_check`'s value for a key: what a later start opens to know the key is the same. */
export function sealKeyCheck(box: SecretBox): string {
  return box.seal(CHECK_PLAINTEXT, CHECK_CONTEXT);
}

/** `<data folder>/secret.key`. */
export function secretKeyFilePath(environment: EnvironmentSource = process.env): string {
  return path.join(dataFolder(environment), SECRET_KEY_FILE);
}

/** The context a secret's value is sealed under (bound as associated data). */
export function secretContext(name: string): string {
  return `secret:${name}`;
}

/**
 * The database's secret box: the key from STUDIO_SECRET_KEY, else the key file
 * (made on first start, mode 0600), checked against the Meta row
 * `secret_key_check`. A key that does not open what is stored throws
 * SecretKeyMismatchError; nothing is ever regenerated over stored secrets.
 */
export async function openSecretBox(database: StudioDatabase, options: SecretKeyOptions = {}): Promise<SecretBox> {
  const environment = options.environment ?? process.env;
  const check = await database.meta.findUnique({ where: { key: SECRET_KEY_CHECK } });
  const sample = check ? null : await database.secret.findFirst({ select: { name: true, ciphertext: true } });
  const hasStoredSecrets = check !== null || sample !== null;

  const { key, source } = loadSecretKey(environment, hasStoredSecrets);
  const box = createSecretBox(key);

  try {
    if (check) {
      if (box.open(check.value, CHECK_CONTEXT) !== CHECK_PLAINTEXT) throw new SecretDecryptionError("check text differs");
    } else if (sample) {
      box.open(sample.ciphertext, secretContext(sample.name));
    }
  } catch (error) {
    if (!SecretDecryptionError.isInstance(error)) throw error;
    throw new SecretKeyMismatchError(mismatchMessage(`The secret key from ${source} does not match`, environment));
  }

  if (!check) {
    const value = sealKeyCheck(box);
    await database.meta.upsert({ where: { key: SECRET_KEY_CHECK }, create: { key: SECRET_KEY_CHECK, value }, update: {} });
  }
  return box;
}

function loadSecretKey(environment: EnvironmentSource, hasStoredSecrets: boolean): LoadedKey {
  const fromEnvironment = readEnvironment(environment).STUDIO_SECRET_KEY;
  if (fromEnvironment !== undefined) {
    return { key: Buffer.from(fromEnvironment, "base64"), source: "STUDIO_SECRET_KEY" };
  }

  const file = secretKeyFilePath(environment);
  let stats;
  try {
    stats = statSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    if (hasStoredSecrets) {
      throw new SecretKeyMismatchError(mismatchMessage(`The secret key file ${file} is missing, but the database holds secrets sealed with a key`, environment));
    }
    return { key: createKeyFile(file), source: `the key file ${file}` };
  }

  if (!stats.isFile()) throw new SecretKeyError(`The secret key path ${file} is not a file. Move it away, or set STUDIO_SECRET_KEY.`);
  if (process.platform !== "win32" && (stats.mode & 0o077) !== 0) {
    throw new SecretKeyError(
      `The secret key file ${file} can be read by other users (mode ${(stats.mode & 0o777).toString(8)}). ` +
        `Restrict it with: chmod 600 ${file}`,
    );
  }
  const text = readFileSync(file, "utf8").trim();
  const key = Buffer.from(text, "base64");
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text) || key.length !== SECRET_KEY_BYTES) {
    throw new SecretKeyError(
      `The secret key file ${file} does not hold the base64 of ${SECRET_KEY_BYTES} bytes. Restore it from your backup, ` +
        `or set STUDIO_SECRET_KEY to the key the secrets were saved with.`,
    );
  }
  return { key, source: `the key file ${file}` };
}

function createKeyFile(file: string): Buffer {
  const key = randomBytes(SECRET_KEY_BYTES);
  try {
    // wx: if another process made the file meanwhile, use theirs instead.
    writeFileSync(file, `${key.toString("base64")}\n`, { mode: 0o600, flag: "wx" });
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return Buffer.from(readFileSync(file, "utf8").trim(), "base64");
  }
}

function mismatchMessage(what: string, environment: EnvironmentSource): string {
  return (
    `${what} the secrets stored in the database. The studio refuses to start rather than lose them. ` +
    `To fix it, restore the key file ${secretKeyFilePath(environment)} from your backup (mode 0600), or set ` +
    `STUDIO_SECRET_KEY to the base64 key the secrets were saved with. If that key is gone for good, the stored secrets ` +
    `cannot be recovered: delete the Secret rows and the Meta row "${SECRET_KEY_CHECK}" and enter the secrets again.`
  );
}
