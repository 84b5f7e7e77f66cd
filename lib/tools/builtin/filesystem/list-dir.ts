import { lstatSync, readdirSync, statSync, type Dirent, type Stats } from "node:fs";
import { realpath } from "node:fs/promises";
import { setImmediate as nextTurn } from "node:timers/promises";
import path from "node:path";
import { z } from "zod";
import { isInside, relativeToRoot } from "../../confinement";
import { pathRefusal } from "../../permissions/path-rules";
import type { ToolContext } from "../../tool-context";
import { ToolResult } from "../../tool-result";
import { truncateMiddle } from "../shared/limits";
import type { WorkingDirectorySettings } from "../shared/working-directory";
import { FolderTool } from "./folder-tool";
import { describeFileError, formatBytes, rootOf } from "./file-content";

/** Entries returned at most; the rest are counted. */
export const MAX_LIST_ENTRIES = 1_000;
// Counting what was left out stops here, so a huge tree cannot stall the call.
const MAX_ENTRIES_VISITED = 50_000;
/**
 * Entries described synchronously between two turns of the event loop. A stat is microseconds done synchronously
 * and ten times that through the promise API (a trip through libuv's thread pool, per entry); yielding every so
 * often keeps a folder of a hundred thousand files from holding up everything else the server does.
 */
const ENTRIES_PER_TURN = 256;
/** Folders a recursive listing shows but does not go into. */
const NOT_DESCENDED = new Set([".git", "node_modules"]);

const ListDirArgs = z.object({
  path: z
    .string()
    .min(1, 'give a folder, or "." for the working folder')
    .default(".")
    .describe('The folder to list, relative to the working folder. "." (the default) is the working folder itself.'),
  recursive: z
    .boolean()
    .default(false)
    .describe("Also list the contents of subfolders (.git and node_modules are shown but not entered)."),
  maxDepth: z
    .number()
    .int()
    .min(1, "give 1 or more")
    .optional()
    .describe("How many levels to list: 1 = only the folder's own entries, 2 = also its subfolders' entries. Implies recursive."),
  includeHidden: z.boolean().default(false).describe("Also list entries whose names start with a dot."),
});
type ListDirArgs = z.infer<typeof ListDirArgs>;

/** One entry of a listing; `path` is relative to the working folder. */
export interface DirectoryEntry {
  path: string;
  type: "file" | "dir" | "symlink" | "other";
  /** Bytes, for files. */
  size?: number;
  /** For a symlink: where it points, relative to the working folder; null when outside it or broken. */
  target?: string | null;
  /** A folder shown but not entered (.git, node_modules, or the depth limit). */
  notListed?: boolean;
}

/** Lists a folder's entries, optionally recursively, without ever following symbolic links. */
export class ListDirTool extends FolderTool<ListDirArgs> {
  constructor() {
    super({
      name: "list_dir",
      title: "List a Directory",
      icon: "folder-tree",
      description:
        "List the files and folders in a folder of the working folder, with their sizes; recursive lists subfolders too. " +
        "Paths in the result are relative to the working folder and can be passed to read_file. To find text inside files, use search.",
      inputModel: ListDirArgs,
      capabilities: ["file.list"],
      progressVerb: "Listing",
    });
  }

  override async call(args: ListDirArgs, ctx: ToolContext<WorkingDirectorySettings>): Promise<ToolResult> {
    const root = rootOf(ctx);
    const relativePath = relativeToRoot(root, args.path);
    let stats: Stats;
    try {
      // Synchronous: one stat of a path confinement has just resolved synchronously (see ENTRIES_PER_TURN).
      stats = statSync(args.path);
    } catch (error) {
      return ToolResult.error(describeFileError(error, "path", relativePath));
    }
    if (!stats.isDirectory()) {
      return ToolResult.error(`\`path\`: "${relativePath}" is a file, not a folder. Use read_file to read it, or list its folder.`);
    }

    const recursive = args.recursive || args.maxDepth !== undefined;
    const walk: Walk = {
      root,
      ctx,
      depthLimit: recursive ? (args.maxDepth ?? Number.POSITIVE_INFINITY) : 1,
      recursive,
      includeHidden: args.includeHidden,
      entries: [],
      leftOut: 0,
      visited: 0,
      hiddenSkipped: 0,
      described: 0,
    };
    try {
      await listFolder(args.path, 1, walk);
    } catch (error) {
      return ToolResult.error(describeFileError(error, "path", relativePath));
    }

    const where = `${relativePath === "." ? "The working folder" : `"${relativePath}"`}${recursive ? " (recursive)" : ""}`;
    const lines = walk.entries.map(formatEntry);
    const notes: string[] = [];
    if (walk.leftOut > 0) {
      const count = walk.visited >= MAX_ENTRIES_VISITED ? `More than ${walk.leftOut}` : String(walk.leftOut);
      notes.push(`[${count} more entries left out after the first ${MAX_LIST_ENTRIES}. List a subfolder, or set maxDepth.]`);
    }
    if (walk.hiddenSkipped > 0 && !args.includeHidden) {
      notes.push(`[${walk.hiddenSkipped} hidden entr${walk.hiddenSkipped === 1 ? "y" : "ies"} (names starting with ".") not shown; set includeHidden to list them.]`);
    }
    const heading =
      walk.entries.length === 0 ? `${where} is empty.` : `${where}: ${walk.entries.length} entr${walk.entries.length === 1 ? "y" : "ies"}.`;
    const text = [heading, ...lines, ...(notes.length > 0 ? ["", ...notes] : [])].join("\n");
    return ToolResult.ok(truncateMiddle(text), { path: relativePath, entries: walk.entries, leftOut: walk.leftOut });
  }
}

interface Walk {
  root: string;
  ctx: ToolContext<WorkingDirectorySettings>;
  depthLimit: number;
  recursive: boolean;
  includeHidden: boolean;
  entries: DirectoryEntry[];
  leftOut: number;
  visited: number;
  hiddenSkipped: number;
  /** Entries described so far, for yielding every ENTRIES_PER_TURN. */
  described: number;
}

/** Depth-first, each folder's entries sorted by name, so children follow their folder. */
async function listFolder(folder: string, depth: number, walk: Walk): Promise<void> {
  // Synchronous: the promise form builds the same Dirents on this thread anyway, after a trip through libuv's thread
  // pool that costs three times the CPU of the read itself.
  const children = readdirSync(folder, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const visible: Dirent[] = [];
  for (const child of children) {
    if (!walk.includeHidden && child.name.startsWith(".")) {
      walk.hiddenSkipped++;
      continue;
    }
    const relativePath = relativeToRoot(walk.root, path.join(folder, child.name));
    // Guardrail-denied entries (.env, keys, .git) are not shown at all.
    if (pathRefusal(walk.ctx.permissions.guardrails, relativePath)) continue;
    visible.push(child);
  }
  const described: DirectoryEntry[] = [];
  for (const child of visible) {
    // Counted over the whole walk: a tree of many small folders yields too.
    if (++walk.described % ENTRIES_PER_TURN === 0) await nextTurn();
    described.push(await describeEntry(folder, child, walk));
  }
  for (const entry of described) {
    if (walk.visited >= MAX_ENTRIES_VISITED || walk.ctx.signal.aborted) return;
    walk.visited++;
    if (walk.entries.length < MAX_LIST_ENTRIES) walk.entries.push(entry);
    else walk.leftOut++;
    if (entry.type !== "dir" || !walk.recursive) continue;
    const name = path.posix.basename(entry.path);
    if (NOT_DESCENDED.has(name) || depth >= walk.depthLimit) {
      entry.notListed = true;
      continue;
    }
    try {
      await listFolder(path.join(folder, name), depth + 1, walk);
    } catch {
      // An unreadable subfolder is listed but not entered; the rest of the tree still counts.
      entry.notListed = true;
    }
  }
}

async function describeEntry(folder: string, child: Dirent, walk: Walk): Promise<DirectoryEntry> {
  const absolute = path.join(folder, child.name);
  const relativePath = relativeToRoot(walk.root, absolute);
  if (child.isSymbolicLink()) return { path: relativePath, type: "symlink", target: await symlinkTarget(absolute, walk.root) };
  if (child.isDirectory()) return { path: relativePath, type: "dir" };
  if (child.isFile()) {
    try {
      return { path: relativePath, type: "file", size: lstatSync(absolute).size };
    } catch {
      return { path: relativePath, type: "file" };
    }
  }
  return { path: relativePath, type: "other" };
}

/** Where a link leads, relative to the root; null when it leads outside or nowhere (it is never followed). */
async function symlinkTarget(link: string, root: string): Promise<string | null> {
  try {
    const target = await realpath(link);
    return isInside(root, target) ? relativeToRoot(root, target) : null;
  } catch {
    return null;
  }
}

function formatEntry(entry: DirectoryEntry): string {
  switch (entry.type) {
    case "dir":
      return `${entry.path}/${entry.notListed ? "  (not listed)" : ""}`;
    case "file":
      return entry.size === undefined ? entry.path : `${entry.path}  ${formatBytes(entry.size)}`;
    case "symlink":
      return `${entry.path} -> ${entry.target ?? "(outside the working folder, or broken)"}`;
    case "other":
      return `${entry.path}  (special file)`;
  }
}
