import { rmSync } from "node:fs";

/** Removes the data folder and workspace playwright.config.ts made for this run. */
export default function globalTeardown(): void {
  const scratch = process.env.E2E_SCRATCH;
  if (scratch && !process.env.E2E_KEEP) rmSync(scratch, { recursive: true, force: true });
}
