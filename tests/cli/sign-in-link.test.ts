import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

/** `npm run sign-in-link`: the printed link again, from the data folder, as the studio would print it. */

const REPO_ROOT = path.resolve(import.meta.dirname, "../..");
const TSX_CLI = path.join(REPO_ROOT, "node_modules/tsx/dist/cli.mjs");
const folders: string[] = [];

afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function signInLink(env: Record<string, string>): string {
  const result = spawnSync(process.execPath, [TSX_CLI, "scripts/sign-in-link.ts"], {
    cwd: REPO_ROOT,
    env: { ...process.env, STUDIO_TOKEN: "", HOST: "", PORT: "", STUDIO_PUBLIC_URL: "", ...env },
    encoding: "utf8",
  });
  expect(result.status, result.stderr).toBe(0);
  return result.stdout.trim();
}

describe("npm run sign-in-link", () => {
  it("prints the same link each time, with the token kept in the data folder (0600)", () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "studio-link-"));
    folders.push(dataDir);
    const first = signInLink({ STUDIO_DATA_DIR: dataDir, PORT: "4123" });
    expect(first).toMatch(/^http:\/\/127\.0\.0\.1:4123\/login\?token=[A-Za-z0-9_-]{40,}$/);
    expect(signInLink({ STUDIO_DATA_DIR: dataDir, PORT: "4123" })).toBe(first);
    const file = path.join(dataDir, "access-token");
    expect(new URL(first).searchParams.get("token")).toBe(readFileSync(file, "utf8").trim());
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("uses STUDIO_TOKEN and STUDIO_PUBLIC_URL when they are set", () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "studio-link-"));
    folders.push(dataDir);
    const link = signInLink({ STUDIO_DATA_DIR: dataDir, STUDIO_TOKEN: "a-token-chosen-for-automation-0123", STUDIO_PUBLIC_URL: "https://studio.example.com" });
    expect(link).toBe("https://studio.example.com/login?token=a-token-chosen-for-automation-0123");
  });
});
