import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import os from "node:os";
import path from "node:path";
import { expect } from "vitest";

/**
 * What an escape attempt (escape-corpus.ts) aims at, for the tests that run the corpus (the pool's, the
 * run_javascript tool's): a secret planted in this process's environment, a marker file that must stay unread and
 * unchanged, a stand-in for the studio's database file, and a loopback listener that must never be connected to.
 * `reachedNothing` asserts, after an outcome, that none of them was reached and that this process's prototypes
 * are untouched.
 */
export interface EscapeTargets {
  /** What the payloads receive as `inputs`. */
  inputs: { port: number; markerPath: string; databasePath: string; secretName: string };
  reachedNothing: (outcome: unknown) => void;
  close: () => Promise<void>;
}

export async function openEscapeTargets(): Promise<EscapeTargets> {
  const secretName = "SANDBOX_PLANTED_SECRET";
  const secret = `planted-${randomBytes(16).toString("hex")}`;
  const markerContent = `marker-${randomBytes(16).toString("hex")}`;
  const databaseContent = `SQLite format 3\u0000 database-${randomBytes(16).toString("hex")}`;
  process.env[secretName] = secret;
  const folder = mkdtempSync(path.join(os.tmpdir(), "sandbox-escape-"));
  const markerPath = path.join(folder, "marker.txt");
  const databasePath = path.join(folder, "studio.db");
  writeFileSync(markerPath, markerContent);
  writeFileSync(databasePath, databaseContent);
  const markerModified = statSync(markerPath).mtimeMs;
  let connections = 0;
  const server: Server = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  const hostPrototypes = { object: Object.getOwnPropertyNames(Object.prototype).sort(), array: Object.getOwnPropertyNames(Array.prototype).sort() };

  return {
    inputs: { port, markerPath, databasePath, secretName },
    reachedNothing: (outcome) => {
      const text = JSON.stringify(outcome);
      expect(text).not.toContain(secret);
      expect(text).not.toContain(markerContent);
      expect(text).not.toContain("database-");
      expect(text).not.toContain("ESCAPED");
      expect(connections).toBe(0);
      expect(readFileSync(markerPath, "utf8")).toBe(markerContent);
      expect(statSync(markerPath).mtimeMs).toBe(markerModified);
      expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(hostPrototypes.object);
      expect(Object.getOwnPropertyNames(Array.prototype).sort()).toEqual(hostPrototypes.array);
      const fresh: Record<string, unknown> = {};
      expect(fresh.polluted).toBeUndefined();
      expect(Object.getPrototypeOf(fresh)).toBe(Object.prototype);
      expect("toJSON" in fresh).toBe(false);
    },
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      delete process.env[secretName];
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
