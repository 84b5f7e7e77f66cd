import type { TestProject } from "vitest/node";
import { describeLeftovers, newRunId, reapLeftovers } from "../../scripts/test-leftovers.mjs";

/**
 * Once per test run:
 * - marks when it started, so the API tests' harness decides once whether
 *   `.next` is stale (sources changed before the run) and never rebuilds under
 *   a running server because someone saved a file mid-run;
 * - gives the run an id (STUDIO_TEST_RUN_ID, kept when scripts/test.sh set it),
 *   which every server, worker, database and folder the tests make is named
 *   after (tests/support/test-run.ts);
 * - at the end, pass or fail, removes whatever of those is still there
 *   (scripts/test-leftovers.mjs) and says so: a test file that does not stop
 *   what it started is a bug, and `npm test`'s last step fails on it, but it
 *   never keeps the run from ending or leaves the machine slower for the next.
 */
export default function setup(project: TestProject): () => Promise<void> {
  const runId = process.env.STUDIO_TEST_RUN_ID ?? newRunId();
  // Set before the workers start, so each inherits it (tests/support/test-run.ts reads it there).
  process.env.STUDIO_TEST_RUN_ID = runId;
  project.provide("testRunStartedAt", Date.now());
  return async () => {
    const reaped = describeLeftovers(await reapLeftovers(runId));
    if (reaped.length > 0) console.warn(`[test run ${runId}] removed what the tests left:\n  ${reaped.join("\n  ")}`);
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    testRunStartedAt: number;
  }
}
