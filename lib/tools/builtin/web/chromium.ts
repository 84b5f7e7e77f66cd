/**
 * The Chromium the studio drives: the browse tool's, and the browser tests'
 * (playwright.config.ts), which run on the same machines. Nothing of the tool
 * framework is imported, so the test config can load it on its own.
 */
import { existsSync } from "node:fs";

/** Debian's Chromium; `CHROMIUM_PATH` points elsewhere. */
export const DEFAULT_CHROMIUM_PATH = "/usr/bin/chromium";

/**
 * Debian's headless shell (package chromium-headless-shell): the same engine
 * and version without the desktop browser around it, which is what headless
 * automation wants. Driving the studio's pages, it took half the CPU of
 * `chromium --headless` (120 s against 206 s for the same 17 browser tests),
 * most of the difference in the renderer, the browser process and the GPU
 * process's software compositing.
 */
export const HEADLESS_SHELL_PATH = "/usr/bin/chromium-headless-shell";

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

/** The Chromium binary this machine would use: `CHROMIUM_PATH`, else the headless shell when installed, else Chromium. */
export function chromiumPath(environment: Record<string, string | undefined> = process.env, installed: (path: string) => boolean = existsSync): string {
  const configured = environment.CHROMIUM_PATH?.trim();
  if (configured) return configured;
  return installed(/*turbopackIgnore: true*/ HEADLESS_SHELL_PATH) ? HEADLESS_SHELL_PATH : DEFAULT_CHROMIUM_PATH;
}
