/**
 * The Chromium the studio drives: the browse tool's, and the browser tests'
 * (playwright.config.ts), which run on the same machines. No imports, so the
 * test config can load it without the tool framework.
 */

/** Debian's Chromium; `CHROMIUM_PATH` points elsewhere. */
export const DEFAULT_CHROMIUM_PATH = "/usr/bin/chromium";

/**
 * Flags for a headless Chromium on a closed network: without the networking
 * ones it floods the network with refused background connections.
 */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

/** The Chromium binary this machine would use. */
export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH?.trim() || DEFAULT_CHROMIUM_PATH;
}
