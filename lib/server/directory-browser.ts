import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import type { DirectoryListing } from "@/lib/contracts/directory-listing";
import { markedError } from "@/lib/marked-error";

/** The most folders one listing returns; a listing that had more says so with `truncated`. */
export const MAX_LISTED_DIRECTORIES = 500;

/** A folder that may not or cannot be listed; `status` is the HTTP status that says why. */
export class DirectoryBrowseError extends markedError("neurosurfer.directory-browse", "DirectoryBrowseError") {
  constructor(
    readonly status: 403 | 404 | 422,
    message: string,
  ) {
    super(message);
  }
}

const BrowseRootsSchema = z
  .string()
  .optional()
  .transform((value) =>
    (value ?? "")
      .split(path.delimiter)
      .map((entry) => entry.trim())
      .filter((entry) => entry !== ""),
  )
  .pipe(z.array(z.string().refine((entry) => path.isAbsolute(entry), "each entry of STUDIO_BROWSE_ROOTS must be an absolute path")));

/**
 * The folders the picker may show: STUDIO_BROWSE_ROOTS (a list separated by
 * the platform's path delimiter), else the user's home folder. Roots that do
 * not exist are left out; each is resolved to its real path.
 */
export async function browseRoots(environment: Readonly<Record<string, string | undefined>> = process.env): Promise<string[]> {
  const configured = BrowseRootsSchema.parse(environment.STUDIO_BROWSE_ROOTS);
  const candidates = configured.length > 0 ? configured : [os.homedir()];
  const roots: string[] = [];
  for (const candidate of candidates) {
    const real = await fs.realpath(candidate).catch(() => null);
    if (real && !roots.includes(real)) roots.push(real);
  }
  return roots;
}

function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === "" || (!relative.startsWith(`..${path.sep}`) && relative !== ".." && !path.isAbsolute(relative));
}

function rootOf(roots: readonly string[], candidate: string): string | undefined {
  // The deepest root wins, so nested roots give the shortest breadcrumbs.
  return roots.filter((root) => isInside(root, candidate)).sort((a, b) => b.length - a.length)[0];
}

/**
 * Lists the sub-folders of `requested`, which must be an absolute path whose
 * real location (symbolic links resolved) lies inside one of `roots`. Without
 * a path, lists the first root. Sub-folders that are links leading outside the
 * roots are left out, so every folder shown can be opened.
 *
 * @example
 *   await listDirectories("/home/ada/projects", { roots: ["/home/ada"] })
 *   // { path: "/home/ada/projects", root: "/home/ada", parent: "/home/ada", directories: ["studio"], … }
 */
export async function listDirectories(
  requested: string | undefined,
  options: { roots: readonly string[]; includeHidden?: boolean; limit?: number },
): Promise<DirectoryListing> {
  const roots = [...options.roots];
  if (roots.length === 0) {
    throw new DirectoryBrowseError(403, "No folder may be browsed: none of the folders in STUDIO_BROWSE_ROOTS exists.");
  }
  const wanted = requested === undefined || requested.trim() === "" ? roots[0]! : requested;
  if (wanted.includes("\0")) throw new DirectoryBrowseError(422, "The path contains a NUL character.");
  if (!path.isAbsolute(wanted)) {
    throw new DirectoryBrowseError(422, `"${wanted}" is a relative path; give an absolute path such as ${roots[0]}.`);
  }
  const real = await realDirectory(wanted);
  const root = rootOf(roots, real);
  if (!root) {
    throw new DirectoryBrowseError(
      403,
      `${wanted} is outside the folders the studio may show (${roots.join(", ")}). Choose a folder inside them, or add its parent to STUDIO_BROWSE_ROOTS.`,
    );
  }

  const entries = await fs.readdir(real, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "EACCES" || error.code === "EPERM") throw new DirectoryBrowseError(403, `The studio may not read ${real}.`);
    throw error;
  });
  const names: string[] = [];
  for (const entry of entries) {
    if (!options.includeHidden && entry.name.startsWith(".")) continue;
    if (entry.isDirectory()) names.push(entry.name);
    else if (entry.isSymbolicLink()) {
      const target = await fs.realpath(path.join(real, entry.name)).catch(() => null);
      if (!target || !rootOf(roots, target)) continue;
      const stat = await fs.stat(target).catch(() => null);
      if (stat?.isDirectory()) names.push(entry.name);
    }
  }
  names.sort((a, b) => a.localeCompare(b, undefined, { sensitivity: "base" }) || (a < b ? -1 : 1));
  const limit = options.limit ?? MAX_LISTED_DIRECTORIES;
  return {
    path: real,
    root,
    parent: real === root ? null : path.dirname(real),
    directories: names.slice(0, limit),
    truncated: names.length > limit,
    roots,
  };
}

async function realDirectory(wanted: string): Promise<string> {
  let real: string;
  try {
    real = await fs.realpath(wanted);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new DirectoryBrowseError(404, `There is no folder ${wanted}.`);
    if (code === "ENOTDIR") throw new DirectoryBrowseError(422, `${wanted} is not a folder.`);
    if (code === "EACCES" || code === "EPERM") throw new DirectoryBrowseError(403, `The studio may not read ${wanted}.`);
    throw error;
  }
  const stat = await fs.stat(real);
  if (!stat.isDirectory()) throw new DirectoryBrowseError(422, `${wanted} is a file, not a folder.`);
  return real;
}
