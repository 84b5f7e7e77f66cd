import os from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

const EVERY_TEST = ["lib/**/*.test.ts", "app/**/*.test.ts", "components/**/*.test.ts", "nodes/**/*.test.ts", "scripts/**/*.test.ts", "tests/**/*.test.ts", "*.test.ts"];
const API_TESTS = ["tests/api/**/*.test.ts"];
/**
 * API files whose subject is the HTTP surface, not storage: input checks, the door and identities, the route table,
 * contracts, the catalog, MCP, the model's side (agent, Architect), the code sandbox, deliveries to mail and webhooks.
 * They run on SQLite only. What they store goes through the same Prisma calls the other API files make on both
 * databases; the suite's time (its budget is 20 minutes on a 2-core machine) goes to those that differ by database:
 * runs, events, the queue, durability, schedules, webhooks, approvals, lists, retention, people and grants, upgrades.
 */
const HTTP_SURFACE_TESTS = [
  "access-matrix",
  "account",
  "agent",
  "approval-notifications",
  "approval-webhooks",
  "architect",
  "auth",
  "code-node",
  "contracts",
  "door",
  "hostile-input",
  "mcp",
  "route-access",
  "single-sign-on",
  "tools",
].map((name) => `tests/api/${name}.test.ts`);

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    environment: "node",
    // Ceilings, not waits (tests wait for events): a test that takes 20 s on a quiet 2-core machine takes three times
    // that beside two CPU-bound processes, and must still pass there.
    testTimeout: 90_000,
    // The API tests (tests/api) spend most of their time waiting on their own
    // server process, so even a 2-core machine runs two files at once.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    hookTimeout: 120_000,
    // The global setup's teardown removes whatever the tests left (servers, databases, folders): give it time.
    teardownTimeout: 120_000,
    globalSetup: ["tests/api/global-setup.ts"],
    projects: [
      // Everything, the API tests with the studio on its embedded SQLite.
      // (`*.postgres.test.ts` need several processes on one database: PostgreSQL only.)
      { extends: true, test: { name: "sqlite", include: EVERY_TEST, exclude: ["**/node_modules/**", "**/*.postgres.test.ts"] } },
      // The API tests again with the studio on PostgreSQL (a fresh database per server; tests/api/studio-server.ts),
      // but for those of the HTTP surface.
      { extends: true, test: { name: "api-postgresql", include: API_TESTS, exclude: HTTP_SURFACE_TESTS, env: { STUDIO_TEST_DATABASE: "postgresql" } } },
    ],
  },
});
