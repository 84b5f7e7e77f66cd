import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { folderPrefix, SERVER_MARKER } from "../../scripts/test-leftovers.mjs";

/**
 * The id of this test run (STUDIO_TEST_RUN_ID: from scripts/test.sh, or made by
 * vitest's global setup, tests/api/global-setup.ts). Everything the tests
 * start is named after it, so scripts/test-leftovers.mjs can find and remove
 * whatever a failed start, a crashed worker or a forgotten stop() left behind.
 */
export function testRunId(): string {
  const id = process.env.STUDIO_TEST_RUN_ID;
  if (!id) throw new Error("STUDIO_TEST_RUN_ID is not set: run the tests through vitest (its global setup sets it) or scripts/test.sh.");
  return id;
}

/** A fresh temporary folder named after the run (`studio-<kind>-<run id>-…`), found by the run's reaper if left behind. */
export function testRunFolder(kind: string): string {
  return mkdtempSync(path.join(os.tmpdir(), folderPrefix(kind, testRunId())));
}

/** The environment a process the tests start must carry, so that it and its children are found by the run's reaper. */
export function testRunMarker(): Record<string, string> {
  return { [SERVER_MARKER]: testRunId() };
}
