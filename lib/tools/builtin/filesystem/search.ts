import { spawn, spawnSync } from "node:child_process";
import type { Stats } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";
import picomatch from "picomatch";
import { z } from "zod";
import { relativeToRoot } from "../../confinement";
import { pathRefusal } from "../../permissions/path-rules";
import type { ToolContext } from "../../tool-context";
import { ToolResult } from "../../tool-result";
import { truncateMiddle } from "../shared/limits";
import type { WorkingDirectorySettings } from "../shared/working-directory";
import { FolderTool } from "./folder-tool";
import { describeFileError, displayName, rootOf } from "./file-content";

/** A search that takes longer is stopped and reports what it found so far. */
export const SEARCH_TIMEOUT_MS = 20_000;
/** grep output read at most; past it the search stops (a few huge lines can be megabytes). */
const MAX_OUTPUT_BYTES = 16 * 1024 * 1024;
/** A matching line is cut to this many characters (minified code is one enormous line). */
const MAX_MATCH_CHARACTERS = 500;
/** grep exits 0 on a match, 1 on none, 2 on an error. */
const GREP_NO_MATCH = 1;
const GREP_ERROR = 2;

const SearchArgs = z.object({
  pattern: z
    .string()
    .min(1, "give the text or regular expression to find")
    .describe(
      "A regular expression (Perl-compatible) matched against each line, e.g. \"function\\s+loadUser\" or \"TODO|FIXME\". " +
        "Escape special characters to find them literally (\"user\\.name\\(\"). This is not a file name or path.",
    ),
  path: z
    .string()
    .min(1, 'give a folder or file, or "." for the working folder')
    .default(".")
    .describe('The folder (searched with its subfolders) or file to search, relative to the working folder. Defaults to "." (everything).'),
  glob: z
    .string()
    .min(1, "give a file-name pattern such as *.ts, or leave it out")
    .optional()
    .describe('Only search files whose names match this pattern, e.g. "*.ts" or "*.{ts,tsx}"; with a "/" it is matched against the path below `path`, e.g. "src/**/*.test.ts".'),
  caseSensitive: z.boolean().default(true).describe("Tell upper and lower case apart (\"Error\" does not match \"error\"). Turn this off to match either."),
  maxResults: z
    .number()
    .int()
    .min(1, "ask for at least one result")
    .max(1_000, "ask for at most 1000 results; narrow the search instead")
    .default(200)
    .describe("Most matching lines to return."),
});
type SearchArgs = z.infer<typeof SearchArgs>;

/** One matching line; `path` is relative to the working folder, `line` counts from 1. */
export interface SearchMatch {
  path: string;
  line: number;
  text: string;
}

interface GrepSupport {
  available: boolean;
  /** `-P` (PCRE) works; otherwise `-E` (POSIX extended) is used. */
  perl: boolean;
}

let grepSupport: GrepSupport | undefined;

/** Whether grep is installed and understands -P; asked once per process. */
export function detectGrep(): GrepSupport {
  if (!grepSupport) {
    const probe = (flag: string) => spawnSync("grep", [flag, "-e", "a"], { input: "a\n", timeout: 5_000, env: grepEnvironment() });
    const perl = probe("-P");
    if (perl.status === 0) grepSupport = { available: true, perl: true };
    else grepSupport = { available: probe("-E").status === 0, perl: false };
  }
  return grepSupport;
}

function grepEnvironment(): NodeJS.ProcessEnv {
  // A UTF-8 locale, so "." and -i work on characters, not bytes; without it grep falls back to C.
  return { ...process.env, LC_ALL: "C.UTF-8" };
}

/** Finds lines matching a regular expression across a folder tree, with GNU grep. */
export class SearchTool extends FolderTool<SearchArgs> {
  constructor() {
    super({
      name: "search",
      title: "Search Files",
      icon: "search",
      description:
        "Find the lines that match a regular expression in the files of a folder and its subfolders, like grep -rn. " +
        "Returns path:line: text for each match, paths relative to the working folder. Binary files, .git and node_modules are skipped. " +
        "Use glob to limit the search to some file names; use list_dir to see what files exist.",
      inputModel: SearchArgs,
      capabilities: ["file.search"],
      runtime: "local_subprocess",
    });
  }

  override isEnabled(): boolean {
    return detectGrep().available;
  }

  override progressMessage(args: SearchArgs): string {
    return `Searching for /${args.pattern}/ in ${displayName(args.path)}…`;
  }

  override async call(args: SearchArgs, ctx: ToolContext<WorkingDirectorySettings>): Promise<ToolResult> {
    const root = rootOf(ctx);
    const relativePath = relativeToRoot(root, args.path);
    let target: Stats;
    try {
      target = await stat(args.path);
    } catch (error) {
      return ToolResult.error(describeFileError(error, "path", relativePath));
    }
    const support = detectGrep();
    if (!support.available) return ToolResult.error("The search tool needs grep, which is not installed on this machine.");

    const syntax = support.perl ? "-P" : "-E";
    const caseFlags = args.caseSensitive ? [] : ["-i"];
    const invalid = await checkPattern([syntax, ...caseFlags], args.pattern, ctx.signal);
    if (invalid !== null) {
      return ToolResult.error(
        `\`pattern\`: ${JSON.stringify(args.pattern)} is not a valid regular expression (${invalid}). Escape special characters such as ( [ . * + ? with a backslash to match them literally.`,
      );
    }

    // grep matches --include against the file's own name, and has no {a,b}; other globs are matched here.
    const simpleGlob = args.glob !== undefined && !/[/{]/.test(args.glob);
    const globMatcher =
      args.glob !== undefined && !simpleGlob ? picomatch(args.glob, { dot: true, basename: !args.glob.includes("/") }) : null;
    const searchBase = target.isDirectory() ? args.path : path.dirname(args.path);

    const grepArgs = [
      "-r",
      "-n",
      "-H",
      "-I",
      "-s",
      "--null",
      "--color=never",
      // A pipe or device in the tree would block grep forever.
      "--devices=skip",
      "--exclude-dir=.git",
      "--exclude-dir=node_modules",
      ...(simpleGlob ? [`--include=${args.glob}`] : []),
      ...caseFlags,
      syntax,
      "-e",
      args.pattern,
      "--",
      args.path,
    ];
    const run = await runSearch(grepArgs, ctx.signal, args.maxResults, (file) => {
      const relative = relativeToRoot(root, file);
      // Guardrail-denied files (.env, keys) are searched by grep but never reported.
      if (pathRefusal(ctx.permissions.guardrails, relative)) return null;
      if (globMatcher && !globMatcher(path.relative(searchBase, file).split(path.sep).join("/"))) return null;
      return relative;
    });

    if (run.outcome === "cancelled") return ToolResult.error("`search` was cancelled.");
    if (run.outcome === "failed") return ToolResult.error(`\`search\` could not run grep: ${run.message}`);

    const where = relativePath === "." ? "the working folder" : `"${relativePath}"`;
    const filter = args.glob === undefined ? "" : ` (files matching ${args.glob})`;
    const matches = run.matches.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line));
    const notes: string[] = [];
    if (run.outcome === "timed-out") {
      notes.push(`[The search stopped after ${SEARCH_TIMEOUT_MS / 1000} s; these are the matches found so far. Narrow path or glob.]`);
    }
    if (run.outcome === "output-limit") notes.push("[The search stopped early: the matching lines are very long. Narrow path or glob.]");
    if (run.more) {
      notes.push(
        `[Showing the first ${matches.length} matches; there are more. Make the pattern more specific, narrow path or glob, or raise maxResults (up to 1000).]`,
      );
    }
    if (run.exitCode === GREP_ERROR) notes.push("[Some files could not be read and were skipped.]");

    if (matches.length === 0) {
      const text = `No matches for /${args.pattern}/ in ${where}${filter}.${run.outcome === "timed-out" ? ` ${notes[0]}` : ""}`;
      return ToolResult.ok(text, { matches: [] });
    }
    const files = new Set(matches.map((match) => match.path)).size;
    const heading = `${matches.length}${run.more ? "+" : ""} match${matches.length === 1 ? "" : "es"} in ${files} file${files === 1 ? "" : "s"} for /${args.pattern}/ in ${where}${filter}:`;
    const lines = matches.map((match) => `${match.path}:${match.line}: ${match.text}`);
    const text = [heading, ...lines, ...(notes.length > 0 ? ["", ...notes] : [])].join("\n");
    return ToolResult.ok(truncateMiddle(text), { matches, truncated: run.more });
  }
}

/** grep's complaint about `pattern`, or null when it is a valid expression. */
async function checkPattern(flags: readonly string[], pattern: string, signal: AbortSignal): Promise<string | null> {
  return new Promise((resolve) => {
    const child = spawn("grep", [...flags, "-e", pattern], { stdio: ["pipe", "ignore", "pipe"], env: grepEnvironment(), signal });
    let errors = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (errors += chunk));
    child.on("error", () => resolve(null)); // Reported by the search itself.
    child.on("close", (code) => {
      if (code !== GREP_ERROR) return resolve(null);
      resolve(errors.replace(/^grep: /gm, "").trim().split("\n")[0] || "grep rejected it");
    });
    child.stdin.end();
  });
}

type SearchRun =
  | { outcome: "cancelled" }
  | { outcome: "failed"; message: string }
  | {
      outcome: "done" | "timed-out" | "output-limit";
      matches: SearchMatch[];
      /** Stopped at maxResults with more to come. */
      more: boolean;
      exitCode: number | null;
    };

/**
 * Runs grep with an argument list (never a shell), reading `file\0line:text`
 * records as they come, and stops it once `maxResults` visible matches and one
 * more are in, on timeout, past the output limit, or when `signal` aborts.
 * `visiblePath` maps grep's file name to the reported path, or null to drop it.
 */
function runSearch(
  grepArgs: readonly string[],
  signal: AbortSignal,
  maxResults: number,
  visiblePath: (file: string) => string | null,
): Promise<SearchRun> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve({ outcome: "cancelled" });
    const child = spawn("grep", grepArgs, { stdio: ["ignore", "pipe", "ignore"], env: grepEnvironment() });
    const matches: SearchMatch[] = [];
    let more = false;
    let stopReason: "timed-out" | "output-limit" | "cancelled" | null = null;
    let pending = "";
    let bytesRead = 0;

    const stop = (reason: typeof stopReason) => {
      stopReason ??= reason;
      child.kill("SIGTERM");
    };
    const timer = setTimeout(() => stop("timed-out"), SEARCH_TIMEOUT_MS);
    const onAbort = () => stop("cancelled");
    signal.addEventListener("abort", onAbort, { once: true });

    const takeLine = (record: string) => {
      const separator = record.indexOf("\0");
      if (separator === -1) return;
      const reported = visiblePath(record.slice(0, separator));
      if (reported === null) return;
      const rest = record.slice(separator + 1);
      const colon = rest.indexOf(":");
      const line = Number(rest.slice(0, colon));
      if (colon === -1 || !Number.isInteger(line)) return;
      if (matches.length >= maxResults) {
        more = true;
        stop(null);
        return;
      }
      let text = rest.slice(colon + 1).replace(/\r$/, "").trimEnd();
      if (text.length > MAX_MATCH_CHARACTERS) text = `${text.slice(0, MAX_MATCH_CHARACTERS)}… [line cut: ${text.length} characters]`;
      matches.push({ path: reported, line, text });
    };

    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      if (more || stopReason) return;
      bytesRead += Buffer.byteLength(chunk);
      pending += chunk;
      let newline = pending.indexOf("\n");
      while (newline !== -1 && !more) {
        takeLine(pending.slice(0, newline));
        pending = pending.slice(newline + 1);
        newline = pending.indexOf("\n");
      }
      if (bytesRead > MAX_OUTPUT_BYTES) stop("output-limit");
    });

    const finish = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
    };
    child.on("error", (error) => {
      finish();
      resolve({ outcome: "failed", message: error.message });
    });
    child.on("close", (code) => {
      finish();
      if (stopReason === "cancelled") return resolve({ outcome: "cancelled" });
      if (!more && !stopReason && pending !== "") takeLine(pending);
      const exitCode = more || stopReason ? null : code;
      if (exitCode !== null && exitCode !== 0 && exitCode !== GREP_NO_MATCH && exitCode !== GREP_ERROR) {
        return resolve({ outcome: "failed", message: `grep exited with code ${exitCode}.` });
      }
      resolve({ outcome: stopReason ?? "done", matches, more, exitCode });
    });
  });
}
