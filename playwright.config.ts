import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, chromiumPath } from "./lib/tools/builtin/web/chromium";
import { folderPrefix, newRunId } from "./scripts/test-leftovers.mjs";

/**
 * Browser tests: Debian's Chromium headless shell against the real production
 * server, one per worker (e2e/fixtures/worker-studio.ts: `npm start`'s
 * launcher on the build `scripts/test.sh` makes first, with a data folder,
 * access token and signed-in browser state of its own). The folder they live
 * in is made once, in the runner, and handed on through the environment (the
 * config is loaded again in each worker).
 */
const WORKERS = Number(process.env.E2E_WORKERS ?? 2);

if (!process.env.E2E_SCRATCH) {
  // Named after the test run (scripts/test.sh sets its id), so the run's last check finds anything left behind.
  process.env.STUDIO_TEST_RUN_ID ??= newRunId();
  process.env.E2E_SCRATCH = mkdtempSync(path.join(os.tmpdir(), folderPrefix("e2e", process.env.STUDIO_TEST_RUN_ID)));
}

export default defineConfig({
  testDir: "e2e",
  // Removes the temporary folders afterwards (kept with E2E_KEEP=1, to look at what the server wrote).
  globalTeardown: "./e2e/global-teardown.ts",
  // A spec's tests run in order in one worker; specs are spread over the workers, each on its own server. Two workers on
  // two cores: one left a third of the CPU idle.
  fullyParallel: false,
  workers: WORKERS,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  // Ceilings, not waits: on a 2-core machine beside other work, the canvas's first draw alone took over 10 s (load 16),
  // and a long flow over 60 s. A test that passes returns as soon as what it waits for appears.
  timeout: 120_000,
  expect: { timeout: 20_000 },
  // The HTML report keeps every attached screenshot (playwright-report/, not committed).
  reporter: [["list"], ["html", { open: "never" }]],
  use: {
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
});
