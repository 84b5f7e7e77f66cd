import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { z } from "zod";
import { CoreTool } from "../shared/core-tool";
import type { ToolContext } from "../../tool-context";
import { ToolResult } from "../../tool-result";
import { MAX_RESULT_CHARACTERS, truncateMiddle } from "../shared/limits";
import { commandEnvironment } from "../shared/command-environment";
import { checkOutbound } from "../../net/outbound";
import { startGuardedProxy, type GuardedProxy } from "../../net/guarded-proxy";
import { hostOf } from "../../net/outbound";
import { httpUrl } from "./web-support";
import { CHROMIUM_ARGS, chromiumPath } from "./chromium";

const VIEWPORT = { width: 1280, height: 800 };
/** Starting the browser is not the page's fault, so it does not count against the call's time limit. */
const LAUNCH_TIMEOUT_MS = 30_000;

/**
 * Whether Chromium is installed, looked at again at most every few seconds:
 * the catalog asks on every pool() (every run, every delivery), and a
 * Chromium installed while the studio runs still shows up soon after.
 */
const CHROMIUM_RECHECK_MS = 5_000;
let chromiumSeen: { configured: string | undefined; present: boolean; at: number } | null = null;
function chromiumPresent(): boolean {
  const now = Date.now();
  // Keyed by the setting, not the path: finding the path looks on disk for the headless shell, which is this cache's job.
  const configured = process.env.CHROMIUM_PATH;
  if (!chromiumSeen || chromiumSeen.configured !== configured || now - chromiumSeen.at > CHROMIUM_RECHECK_MS) {
    chromiumSeen = { configured, present: existsSync(/*turbopackIgnore: true*/ chromiumPath()), at: now };
  }
  return chromiumSeen.present;
}

const BrowseArgs = z.object({
  url: httpUrl("The absolute http:// or https:// address of the page to open."),
  waitForSelector: z
    .string()
    .trim()
    .min(1, "give a CSS selector, or leave the field out")
    .optional()
    .describe("A CSS selector to wait for before reading the page, for content drawn by scripts (e.g. `#results li`)."),
  timeoutSeconds: z.number().int().min(1).max(120).default(30).describe("Give up loading (and waiting) after this many seconds."),
});
type BrowseArgs = z.infer<typeof BrowseArgs>;

/**
 * Opens a page in a real headless Chromium and returns its title, visible
 * text and a screenshot. For pages that only show their content after
 * scripts run; plain documents and APIs are cheaper through `http`.
 *
 * @example
 *   await new BrowseTool().run({ url: "https://example.com", waitForSelector: "main" }, ctx);
 */
export class BrowseTool extends CoreTool<BrowseArgs> {
  constructor() {
    super({
      name: "browse",
      title: "Browse a Web Page",
      icon: "app-window",
      domain: "web",
      description:
        "Open a web page in a real browser (scripts run) and return its title, its visible text and a screenshot. Use http instead for APIs and plain documents.",
      inputModel: BrowseArgs,
      capabilities: ["web.browse"],
      runtime: "local_subprocess",
      readOnly: true,
      // Each call starts a whole browser; several at once would starve the machine.
      concurrencySafe: false,
    });
  }

  override isEnabled(): boolean {
    return chromiumPresent();
  }

  override progressMessage(args: BrowseArgs): string {
    return `Opening ${args.url}…`;
  }

  override async call(args: BrowseArgs, ctx: ToolContext): Promise<ToolResult> {
    const executablePath = chromiumPath();
    if (!existsSync(/*turbopackIgnore: true*/ executablePath)) {
      return ToolResult.error(
        `No browser is installed at ${executablePath}, so pages cannot be browsed here. Use http instead, or ask an administrator to install Chromium (or set CHROMIUM_PATH).`,
      );
    }
    const timeout = args.timeoutSeconds * 1000;
    // The page's own address is checked (and asked about) like any request, before a browser starts.
    const target = new URL(args.url);
    const checked = await checkOutbound(target, { method: "GET", headers: [], body: null }, ctx);
    if (!checked.allowed) return ToolResult.error(checked.reason, { kind: checked.kind });
    // Loaded only when used: most runs never open a browser.
    const { chromium } = await import("playwright-core");
    const userDataDir = await mkdtemp(path.join(tmpdir(), "neurosurfer-browse-"));
    let context: Awaited<ReturnType<typeof chromium.launchPersistentContext>> | undefined;
    let proxy: GuardedProxy | undefined;
    // One shared close: a second close() returns before the first is done, and the
    // profile folder can only be removed once Chromium has really exited.
    let closing: Promise<void> | undefined;
    const closeBrowser = (): Promise<void> => {
      if (!context) return Promise.resolve();
      closing ??= context.close().catch(() => undefined);
      return closing;
    };
    const closeOnAbort = () => void closeBrowser();
    ctx.signal.addEventListener("abort", closeOnAbort, { once: true });
    try {
      // Every request the browser makes goes through the guarded proxy, which connects only to addresses it
      // checked: the page's own host at the addresses asked about above, others blocked when they reach this
      // machine or its network (not asked about one by one) unless allow-listed.
      proxy = await startGuardedProxy(ctx, new Map([[hostOf(target).toLowerCase(), checked.addresses]]));
      try {
        context = await chromium.launchPersistentContext(userDataDir, {
          executablePath,
          args: [...CHROMIUM_ARGS, ...throughProxy(proxy)],
          headless: true,
          viewport: VIEWPORT,
          timeout: LAUNCH_TIMEOUT_MS,
          // The browser has no business with the studio's environment (its secret key among it).
          env: commandEnvironment(),
          acceptDownloads: false,
        });
      } catch (error) {
        return ToolResult.error(`Could not start the browser at ${executablePath}: ${firstLine(error)}`);
      }
      if (ctx.signal.aborted) return cancelled(args.url);
      const page = context.pages()[0] ?? (await context.newPage());
      let status: number | null = null;
      try {
        const response = await page.goto(args.url, { waitUntil: "load", timeout });
        status = response?.status() ?? null;
      } catch (error) {
        if (ctx.signal.aborted) return cancelled(args.url);
        if (isTimeout(error)) {
          return ToolResult.error(`${args.url} did not finish loading within ${args.timeoutSeconds} s. Try again, or allow more time with timeoutSeconds.`);
        }
        const reason = describeConnectFailure(proxy.failureOf(target.origin)) ?? describeNavigationError(error);
        return ToolResult.error(`Could not open ${args.url}: ${reason}${blockedLine(proxy.blocked, " ")}`);
      }

      if (args.waitForSelector !== undefined) {
        try {
          await page.waitForSelector(args.waitForSelector, { state: "visible", timeout });
        } catch (error) {
          if (ctx.signal.aborted) return cancelled(args.url);
          if (isTimeout(error)) {
            return ToolResult.error(
              `\`waitForSelector\`: nothing matching "${args.waitForSelector}" became visible on ${args.url} within ${args.timeoutSeconds} s. Check the selector, or leave it out to read the page as it loads.`,
            );
          }
          return ToolResult.error(`\`waitForSelector\`: "${args.waitForSelector}" is not a usable CSS selector: ${firstLine(error)}`);
        }
      }

      const title = await page.title();
      const visibleText = await page.evaluate(() => (document.body?.innerText ?? document.documentElement?.textContent ?? "").trim());
      const screenshot = await page.screenshot({ type: "png", timeout });
      const text = truncateMiddle(visibleText.replace(/\n{3,}/g, "\n\n"), MAX_RESULT_CHARACTERS - 1_000);
      const finalUrl = page.url();
      const header = [
        `Title: ${title || "(none)"}`,
        `URL: ${finalUrl}`,
        ...(status !== null ? [`Status: ${status}`] : []),
        ...(proxy.blocked.length > 0 ? [blockedLine(proxy.blocked, "")] : []),
      ].join("\n");
      return ToolResult.withImages(
        `${header}\n\n${text === "" ? "(the page shows no text)" : text}`,
        [{ mediaType: "image/png", data: screenshot.toString("base64") }],
        { url: finalUrl, status, title, text, truncated: text.length < visibleText.length },
      );
    } catch (error) {
      if (ctx.signal.aborted) return cancelled(args.url);
      throw error;
    } finally {
      ctx.signal.removeEventListener("abort", closeOnAbort);
      await closeBrowser();
      await proxy?.close();
      // Chromium may still be flushing its profile as it exits; rm retries ENOTEMPTY.
      await rm(userDataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }).catch(() => undefined);
    }
  }
}

function cancelled(url: string): ToolResult {
  return ToolResult.error(`Browsing ${url} was cancelled.`);
}

function isTimeout(error: unknown): boolean {
  return error instanceof Error && error.name === "TimeoutError";
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0]!.trim();
}

/** Why the proxy could not connect to the page's host, in words (the browser only sees a dropped connection). */
function describeConnectFailure(code: string | undefined): string | null {
  if (code === undefined) return null;
  const reasons: Record<string, string> = {
    ECONNREFUSED: "the connection was refused (nothing is listening there)",
    ECONNRESET: "the connection was reset",
    ETIMEDOUT: "the connection timed out",
    EHOSTUNREACH: "the host cannot be reached from here",
    ENETUNREACH: "the network cannot be reached from here",
  };
  return `${reasons[code] ?? code}.`;
}

/** Chromium's net::ERR_* codes, in words. */
function describeNavigationError(error: unknown): string {
  const message = firstLine(error);
  const code = /net::(ERR_[A-Z_]+)/.exec(message)?.[1];
  const reasons: Record<string, string> = {
    ERR_CONNECTION_REFUSED: "the connection was refused (nothing is listening there)",
    ERR_NAME_NOT_RESOLVED: "the host name could not be found",
    ERR_INTERNET_DISCONNECTED: "this machine has no internet connection",
    ERR_CONNECTION_RESET: "the connection was reset",
    ERR_CERT_AUTHORITY_INVALID: "the site's certificate is not trusted",
    ERR_ABORTED: "the navigation was aborted (the address may be a download)",
    ERR_TUNNEL_CONNECTION_FAILED: "it was not let through (see what was blocked) or could not be reached",
  };
  return code ? `${reasons[code] ?? code}.` : message;
}

/** What the guarded proxy refused, for the result. */
function blockedLine(blocked: readonly string[], before: string): string {
  return blocked.length === 0 ? "" : `${before}Blocked (they reach this machine or its network): ${blocked.join(", ")}`;
}

/**
 * Chromium sends everything through the proxy, loopback included (which it
 * would otherwise reach directly), and looks nothing up itself.
 */
function throughProxy(proxy: GuardedProxy): string[] {
  return [`--proxy-server=${proxy.url}`, "--proxy-bypass-list=<-loopback>"];
}
