import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { readEnvironment } from "@/lib/env";
import { dataFolder } from "@/lib/persistence/data-folder";

/**
 * The studio's access token: the credential that exists even when no password
 * is set, so nothing is served to a caller that merely reaches the port (the
 * Jupyter way). STUDIO_TOKEN sets it for automation; otherwise it is made on
 * first start and kept in `<data folder>/access-token` (mode 0600), so it
 * survives restarts and `npm run studio` can print the same sign-in link again.
 */

export const ACCESS_TOKEN_FILE = "access-token";
const GLOBAL_KEY = Symbol.for("neurosurfer.access-token");
/** The token and its digest, read once per process: every request with a bearer token compares against it. */
type GlobalWithToken = typeof globalThis & { [GLOBAL_KEY]?: { source: string; token: string; digest: Buffer } };

export function accessTokenFilePath(): string {
  return path.join(dataFolder(), ACCESS_TOKEN_FILE);
}

/** The token, read or made once per process (the environment and data folder do not change under it). */
export function accessToken(): string {
  return loadedToken().token;
}

function loadedToken(): { token: string; digest: Buffer } {
  const holder = globalThis as GlobalWithToken;
  const cached = holder[GLOBAL_KEY];
  if (cached) return cached;
  const fromEnvironment = readEnvironment().STUDIO_TOKEN;
  const source = fromEnvironment ? "STUDIO_TOKEN" : accessTokenFilePath();
  const token = fromEnvironment ?? readOrCreateTokenFile(source);
  const loaded = { source, token, digest: createHash("sha256").update(token).digest() };
  holder[GLOBAL_KEY] = loaded;
  return loaded;
}

function readOrCreateTokenFile(file: string): string {
  try {
    const stored = readFileSync(file, "utf8").trim();
    if (stored.length >= 24) return stored;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const token = randomBytes(32).toString("base64url");
  // 'wx' never overwrites a token another process wrote a moment ago; read that one instead.
  try {
    writeFileSync(file, `${token}\n`, { mode: 0o600, flag: "wx" });
    return token;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return readFileSync(file, "utf8").trim();
  }
}

/** Compares in constant time, so the answer's timing says nothing about the token. */
export function isAccessToken(given: string): boolean {
  return timingSafeEqual(createHash("sha256").update(given).digest(), loadedToken().digest);
}

/** The link that signs a browser in: `<base>/login?token=…`; the studio drops the token from the address bar at once. */
export function signInLink(baseUrl: string): string {
  const url = new URL("/login", baseUrl);
  url.searchParams.set("token", accessToken());
  return url.href;
}
