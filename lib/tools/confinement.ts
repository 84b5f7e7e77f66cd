import { lstatSync, readlinkSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { markedError } from "../marked-error";

// The C library's realpath: the same answer as Node's JavaScript one (which lstats each segment from JavaScript), at
// half the cost; it runs for the root and every path input of every call.
const realpathOf = realpathSync.native;

/** Why a path was refused; the message names the input and says what to give instead. */
export class PathConfinementError extends markedError("neurosurfer.path-confinement", "PathConfinementError") {}

/** A root folder checked once per call: absolute, existing, a directory, symlinks resolved. */
export function resolveRoot(root: unknown, settingName: string): string {
  if (typeof root !== "string" || root.trim() === "") {
    throw new PathConfinementError(`settings.${settingName}: expected the absolute path of a folder, got nothing.`);
  }
  if (root.includes("\0")) throw new PathConfinementError(`settings.${settingName}: contains a NUL byte.`);
  if (!path.isAbsolute(root)) {
    throw new PathConfinementError(
      `settings.${settingName}: expected an absolute folder path, got "${root}". A relative root would depend on where the server was started.`,
    );
  }
  let real: string;
  try {
    real = realpathOf(root);
  } catch {
    throw new PathConfinementError(`settings.${settingName}: the folder "${root}" does not exist. Create it or choose another.`);
  }
  if (!statSync(real).isDirectory()) {
    throw new PathConfinementError(`settings.${settingName}: "${root}" is a file, not a folder.`);
  }
  return real;
}

// %2e (.), %2f (/), %5c (\), %00, and %25 (a second layer of encoding), in any case.
const ENCODED_TRICK = /%(2e|2f|5c|00|25|c0|c1|e0)/i;
const WINDOWS_DRIVE = /^[a-zA-Z]:/;
// C0 and C1 control characters, DEL, and the Unicode line and paragraph separators.
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
// Zero-width and text-direction characters: they make a path read differently from what it is.
const INVISIBLE_CHARACTER = /[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;
// Characters drawn like / or \ (division and fraction slashes, full-width solidus, ...).
const SLASH_LOOKALIKE = /[\u2044\u2215\u2216\u29f5\u29f8\u29f9\ufe68\uff0f\uff3c]/;

/**
 * Resolves `input` (relative to `realRoot`, or absolute inside it) and
 * refuses anything that would land outside: `..`, absolute paths elsewhere,
 * symlinks pointing out, NUL bytes, URL-encoded or backslash tricks, `~`.
 * Returns the absolute path. The file itself need not exist yet.
 *
 * @example
 *   confinePath("/srv/reports", "2024/summary.md", "path") // "/srv/reports/2024/summary.md"
 *   confinePath("/srv/reports", "../etc/passwd", "path")   // throws PathConfinementError
 */
export function confinePath(realRoot: string, input: unknown, inputName: string): string {
  if (typeof input !== "string") {
    throw new PathConfinementError(`\`${inputName}\`: expected a path as text.`);
  }
  const refuse = (why: string): never => {
    throw new PathConfinementError(
      `\`${inputName}\`: "${printable(input)}" ${why} Give a path inside the step's folder, relative to it (e.g. "notes/today.md").`,
    );
  };
  if (input.includes("\0")) refuse("contains a NUL byte.");
  if (CONTROL_CHARACTER.test(input)) refuse("contains control characters.");
  if (INVISIBLE_CHARACTER.test(input)) refuse("contains invisible or text-direction characters, which disguise what a path says.");
  if (SLASH_LOOKALIKE.test(input)) refuse("contains a character that looks like / or \\ but is not one.");
  if (ENCODED_TRICK.test(input)) refuse("looks URL-encoded; paths are taken literally, so write it out plainly.");
  if (input.includes("\\")) refuse("contains a backslash; use / between folders.");
  if (WINDOWS_DRIVE.test(input)) refuse("is a Windows drive path.");
  if (input === "~" || input.startsWith("~/")) refuse("starts with ~, which is not expanded here.");

  const normalizedInput = input.normalize("NFC");
  // Full-width and leader dots ("．．/") fold to ".." under compatibility
  // normalization, which other programs may apply to this path later.
  const folded = input.normalize("NFKC");
  if (folded !== normalizedInput && !isInside(realRoot, path.resolve(realRoot, folded))) {
    refuse("contains characters that read as .. or / once Unicode is normalized.");
  }
  const candidate = path.resolve(realRoot, normalizedInput);
  const lexicallyInside = isInside(realRoot, candidate);
  if (!lexicallyInside && !path.isAbsolute(normalizedInput)) refuse("is outside the step's folder.");

  // The lexical check is not enough: a symlink inside the root may point out.
  // Resolve the deepest part of the path that exists and check where it really is.
  const real = realpathOfDeepestExisting(candidate);
  // An absolute path may spell the root through a symlink (/tmp for /private/tmp);
  // what counts is where it really leads.
  if (!lexicallyInside && !isInside(realRoot, real)) refuse("is outside the step's folder.");
  if (!isInside(realRoot, real)) refuse("leads outside the step's folder through a symbolic link.");
  return real;
}

/** True when `candidate` is `root` itself or below it. */
export function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  // Compare whole segments: "..notes" is a file inside the root, not a way out.
  const leavesRoot = relative === ".." || relative.startsWith(`..${path.sep}`);
  return relative === "" || (!leavesRoot && !path.isAbsolute(relative));
}

/**
 * `candidate` with its existing prefix resolved through symlinks and the
 * missing tail appended. A dangling symlink is followed by hand, since writing
 * through it would create its target.
 */
function realpathOfDeepestExisting(candidate: string, depth = 0): string {
  const unresolvable = path.parse(candidate).root + "\0unresolvable";
  if (depth > 40) return unresolvable;
  const missing: string[] = [];
  let current = candidate;
  for (;;) {
    try {
      const real = realpathOf(current);
      return missing.length === 0 ? real : path.join(real, ...missing.reverse());
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // ELOOP and friends mean a link we cannot follow: treat it as leading out.
      if (code !== "ENOENT" && code !== "ENOTDIR") return unresolvable;
      const danglingTarget = symlinkTarget(current);
      if (danglingTarget !== null) {
        return realpathOfDeepestExisting(path.join(/*turbopackIgnore: true*/ danglingTarget, ...missing.reverse()), depth + 1);
      }
      const parent = path.dirname(current);
      if (parent === current) return candidate;
      missing.push(path.basename(current));
      current = parent;
    }
  }
}

function symlinkTarget(entry: string): string | null {
  try {
    if (!lstatSync(entry).isSymbolicLink()) return null;
    return path.resolve(path.dirname(entry), readlinkSync(entry));
  } catch {
    return null;
  }
}

function printable(input: string): string {
  return input.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g, (character) => {
    const code = character.charCodeAt(0);
    return code > 0xff ? `\\u${code.toString(16).padStart(4, "0")}` : `\\x${code.toString(16).padStart(2, "0")}`;
  });
}

/** `absolute` relative to `root`, with forward slashes; "." for the root itself. */
export function relativeToRoot(root: string, absolute: string): string {
  const relative = path.relative(root, absolute);
  return relative === "" ? "." : relative.split(path.sep).join("/");
}
