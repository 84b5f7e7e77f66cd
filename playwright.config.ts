import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, chromiumPath } from "./lib/tools/builtin/web/chromium";
import { folderPrefix, newRunId, SERVER_MARKER } from "./scripts/test-leftovers.mjs";

/**
 * Browser tests: Debian's Chromium against the real production server
 * (`npm start`'s launcher on the build `scripts/test.sh` makes first) with a
 * fresh data folder and access token. The `sign-in` project opens the sign-in
 * link once, as a person would, and every other test starts from that signed-in
 * browser state. The config is loaded again in each worker, so the folders and
 * the token are made once, in the runner, and handed on through the environment.
 */
const PORT = Number(process.env.E2E_PORT ?? 3377);
const BASE_URL = `http://127.0.0.1:${PORT}`;
// The studio mails approvals to this port; e2e/approval-team.spec.ts listens there while it runs (a mail server that is
// not there is a refusal the studio retries; only people whose sign-in name is an address are mailed, and only that spec
// makes any).
process.env.E2E_MAIL_PORT ??= String(PORT + 25);

if (!process.env.E2E_SCRATCH) {
  // Named after the test run (scripts/test.sh sets its id), so the run's last check finds anything left behind.
  process.env.STUDIO_TEST_RUN_ID ??= newRunId();
  const scratch = mkdtempSync(path.join(os.tmpdir(), folderPrefix("e2e", process.env.STUDIO_TEST_RUN_ID)));
  process.env.E2E_SCRATCH = scratch;
  process.env.E2E_DATA_DIR = path.join(scratch, "data");
  process.env.E2E_WORKSPACE = path.join(scratch, "workspace");
  process.env.E2E_SIGNED_IN_STATE = path.join(scratch, "signed-in.json");
  process.env.E2E_TOKEN = `e2e-${randomBytes(24).toString("base64url")}`;
  mkdirSync(process.env.E2E_DATA_DIR);
  mkdirSync(process.env.E2E_WORKSPACE);
}
const DATA_DIR = process.env.E2E_DATA_DIR!;
const WORKSPACE = process.env.E2E_WORKSPACE!;
// The server must use the fresh data folder, open to this machine only: none of the caller's studio settings leak in.
for (const name of ["DATABASE_URL", "STUDIO_PASSWORD", "STUDIO_SECRET_KEY", "STUDIO_PUBLIC_URL", "STUDIO_ALLOWED_HOSTS", "HOST"]) delete process.env[name];

export default defineConfig({
  testDir: "e2e",
  // Removes the temporary folders afterwards (kept with E2E_KEEP=1, to look at what the server wrote).
  globalTeardown: "./e2e/global-teardown.ts",
  fullyParallel: false,
  workers: 1,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  // Ceilings, not waits: on a 2-core machine beside other work, the canvas's first draw alone took over 10 s (load 16),
  // and a long flow over 60 s. A test that passes returns as soon as what it waits for appears.
  timeout: 120_000,
  expect: { timeout: 20_000 },
  // The HTML report keeps every attached screenshot (playwright-report/, not committed).
  reporter: [["list"], ["html", { open: "never" }]],
  use: {
    baseURL: BASE_URL,
    launchOptions: {
      // The headless shell where installed (scripts/ensure-services.sh installs it): half the CPU of full Chromium.
      executablePath: chromiumPath(),
      args: CHROMIUM_ARGS,
    },
    viewport: { width: 1440, height: 900 },
    // What a failure leaves to look at is a screenshot (and the error's page snapshot). The browser is most of these
    // tests' CPU, and a trace (a screencast and a DOM snapshot per action, recorded for every test and kept for
    // failures) took 36 % of it, screenshots of passing tests another 12 %: five specs took 333 s of CPU with both,
    // 185 s without. To record traces: `npx playwright test --trace retain-on-failure` (or `on`); E2E_SCREENSHOTS=on
    // keeps every test's last screen.
    screenshot: process.env.E2E_SCREENSHOTS === "on" ? "on" : "only-on-failure",
    trace: "off",
  },
  projects: [
    { name: "sign-in", testMatch: /sign-in\.setup\.ts/ },
    { name: "studio", dependencies: ["sign-in"], use: { storageState: process.env.E2E_SIGNED_IN_STATE } },
  ],
  webServer: {
    command: "node scripts/serve.mjs",
    // Answers without a credential, so it says when the server is up.
    url: `${BASE_URL}/login`,
    reuseExistingServer: false,
    // A busy machine starts it slowly; it is ready in well under a second on a quiet one.
    timeout: 180_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      NEXT_TELEMETRY_DISABLED: "1",
      PORT: String(PORT),
      STUDIO_TOKEN: process.env.E2E_TOKEN!,
      STUDIO_DATA_DIR: DATA_DIR,
      STUDIO_BROWSE_ROOTS: WORKSPACE,
      STUDIO_SMTP_URL: `smtp://127.0.0.1:${process.env.E2E_MAIL_PORT}`,
      STUDIO_SMTP_FROM: "Neurosurfer Studio <studio@example.test>",
      STUDIO_NOTIFY_CHECK_MS: "500",
      [SERVER_MARKER]: process.env.STUDIO_TEST_RUN_ID!,
    },
  },
});
