import os from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    environment: "node",
    include: ["lib/**/*.test.ts", "app/**/*.test.ts", "components/**/*.test.ts", "nodes/**/*.test.ts", "scripts/**/*.test.ts", "tests/**/*.test.ts", "*.test.ts"],
    testTimeout: 30_000,
    // The API tests (tests/api) spend most of their time waiting on their own
    // server process, so even a 2-core machine runs two files at once.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    hookTimeout: 60_000,
    globalSetup: ["tests/api/global-setup.ts"],
  },
});
