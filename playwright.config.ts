import { mkdirSync, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";

/**
 * Browser tests: Debian's Chromium against the real production server
 * (`next start` on the build `scripts/test.sh` makes first) with a fresh data
 * folder. The config is loaded again in each worker, so the folders are made
 * once, in the runner, and handed on through the environment.
 */
const PORT = Number(process.env.E2E_PORT ?? 3377);
const BASE_URL = `http://127.0.0.1:${PORT}`;

if (!process.env.E2E_SCRATCH) {
  const scratch = mkdtempSync(path.join(os.tmpdir(), "studio-e2e-"));
  process.env.E2E_SCRATCH = scratch;
  process.env.E2E_DATA_DIR = path.join(scratch, "data");
  process.env.E2E_WORKSPACE = path.join(scratch, "workspace");
  mkdirSync(process.env.E2E_DATA_DIR);
  mkdirSync(process.env.E2E_WORKSPACE);
}
const DATA_DIR = process.env.E2E_DATA_DIR!;
const WORKSPACE = process.env.E2E_WORKSPACE!;
// The server must use the fresh data folder, open to this machine only: none of the caller's studio settings leak in.
for (const name of ["DATABASE_URL", "STUDIO_PASSWORD", "STUDIO_SECRET_KEY"]) delete process.env[name];

export default defineConfig({
  testDir: "e2e",
  // Removes the temporary folders afterwards (kept with E2E_KEEP=1, to look at what the server wrote).
  globalTeardown: "./e2e/global-teardown.ts",
  fullyParallel: false,
  workers: 1,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // The HTML report keeps every attached screenshot (playwright-report/, not committed).
  reporter: [["list"], ["html", { open: "never" }]],
  use: {
    baseURL: BASE_URL,
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
    viewport: { width: 1440, height: 900 },
    screenshot: "on",
    trace: "retain-on-failure",
  },
  webServer: {
    command: `node_modules/.bin/next start -H 127.0.0.1 -p ${PORT}`,
    url: `${BASE_URL}/api/tools`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      NEXT_TELEMETRY_DISABLED: "1",
      STUDIO_DATA_DIR: DATA_DIR,
      STUDIO_BROWSE_ROOTS: WORKSPACE,
    },
  },
});
