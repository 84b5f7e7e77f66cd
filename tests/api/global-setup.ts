import type { TestProject } from "vitest/node";

/**
 * Marks when this test run started, so the API tests' harness decides once
 * whether `.next` is stale (sources changed before the run) and never
 * rebuilds under a running server because someone saved a file mid-run.
 */
export default function setup(project: TestProject): void {
  project.provide("testRunStartedAt", Date.now());
}

declare module "vitest" {
  export interface ProvidedContext {
    testRunStartedAt: number;
  }
}
