import { createHash } from "node:crypto";
import { statSync, type Stats } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { FileSnapshot, ToolContext } from "../../tool-context";
import type { ToolErrorKind } from "../../tool-error";

/** Larger files are refused rather than read whole into memory. */
export const MAX_FILE_BYTES = 32 * 1024 * 1024;

/** The real root of a call with a root setting; set by the framework before `call()`. */
export function rootOf(ctx: Pick<ToolContext, "root">): string {
  if (!ctx.root) throw new Error("No root on the context: filesystem tools must be run through Tool.run(), which confines their paths.");
  return ctx.root;
}

/**
 * A short name for a status line. `progressMessage` receives the confined,
 * absolute path but no context, so it cannot make it root-relative; the last
 * part is what a person recognises anyway.
 */
export function displayName(filePath: string): string {
  return path.isAbsolute(filePath) ? path.basename(filePath) || filePath : filePath;
}

export function sha256(bytes: Buffer | string): string {
  return createHash("sha256").update(bytes).digest("hex");
}

export function snapshotOf(bytes: Buffer, stats: Stats): FileSnapshot {
  return { mtimeMs: stats.mtimeMs, size: stats.size, hash: sha256(bytes) };
}

/** Git's rule: a NUL byte in the first 8000 bytes makes a file binary. */
export function looksBinary(bytes: Buffer): boolean {
  return bytes.subarray(0, 8000).includes(0);
}

const UTF8_BOM = "\uFEFF";

/** UTF-8 text without its byte-order mark; invalid sequences become U+FFFD rather than failing. */
export function decodeText(bytes: Buffer): string {
  const text = new TextDecoder("utf-8").decode(bytes);
  return text.startsWith(UTF8_BOM) ? text.slice(1) : text;
}

/** The lines of `text`, without line endings; a final newline does not start another line. */
export function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines.map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
}

export type ImageMediaType = "image/png" | "image/jpeg" | "image/gif" | "image/webp";

const IMAGE_EXTENSIONS: Readonly<Record<string, ImageMediaType>> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
};

/** The image type a file name claims, or null. */
export function imageTypeOfName(filePath: string): ImageMediaType | null {
  return IMAGE_EXTENSIONS[path.extname(filePath).toLowerCase()] ?? null;
}

/** The image type the bytes really are (by their magic numbers), or null. */
export function imageTypeOfBytes(bytes: Buffer): ImageMediaType | null {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    return "image/png";
  }
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "image/jpeg";
  const head = bytes.subarray(0, 12).toString("latin1");
  if (head.startsWith("GIF87a") || head.startsWith("GIF89a")) return "image/gif";
  if (head.startsWith("RIFF") && head.slice(8, 12) === "WEBP") return "image/webp";
  return null;
}

/** What a file is, as far as the filesystem tools care. */
export type ExistingFile =
  | { kind: "missing" }
  | { kind: "directory" }
  /** A pipe, socket or device: reading it could block forever. */
  | { kind: "special" }
  | { kind: "too-large"; size: number; stats: Stats }
  | { kind: "file"; bytes: Buffer; stats: Stats };

/**
 * Reads a file whole, or says why not. Filesystem errors other than "missing"
 * are thrown as-is, for {@link describeFileError}.
 */
export async function readExisting(filePath: string, maxBytes = MAX_FILE_BYTES): Promise<ExistingFile> {
  let stats: Stats;
  try {
    // Synchronous on purpose: one stat is microseconds, while the promise form costs ten times the CPU (a trip
    // through libuv's thread pool); confinement has just resolved the same path synchronously anyway.
    stats = statSync(filePath);
  } catch (error) {
    if (errorCode(error) === "ENOENT" || errorCode(error) === "ENOTDIR") return { kind: "missing" };
    throw error;
  }
  if (stats.isDirectory()) return { kind: "directory" };
  if (!stats.isFile()) return { kind: "special" };
  if (stats.size > maxBytes) return { kind: "too-large", size: stats.size, stats };
  const bytes = await readFile(filePath);
  return { kind: "file", bytes, stats };
}

/**
 * What a file was when a change to it was described, to notice that it changed
 * before the change was made: its hash, or size and time when it is too large
 * to read, or null when there was no file.
 */
export function identityOf(file: ExistingFile): string | null {
  switch (file.kind) {
    case "missing":
      return null;
    case "directory":
    case "special":
      return file.kind;
    case "too-large":
      return `${file.size}:${file.stats.mtimeMs}`;
    case "file":
      return sha256(file.bytes);
  }
}

/** The refusal for a pipe, socket or device, naming the field. */
export function specialFileError(field: string, relativePath: string): string {
  return `\`${field}\`: "${relativePath}" is not a regular file (a pipe, socket or device); only regular files can be read or changed.`;
}

export function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/**
 * A failed filesystem operation as a message a model can act on, naming the
 * input field and the root-relative path.
 */
/** What kind of failure a filesystem error is: a missing file is `not-found`, a file held by another process for a moment `busy`. */
export function fileErrorKind(error: unknown): ToolErrorKind {
  const code = errorCode(error);
  if (code === "ENOENT" || code === "ENOTDIR") return "not-found";
  if (code === "EBUSY" || code === "EAGAIN" || code === "EMFILE" || code === "ENFILE") return "busy";
  return "failed";
}

export function describeFileError(error: unknown, field: string, relativePath: string): string {
  const prefix = `\`${field}\`: "${relativePath}"`;
  switch (errorCode(error)) {
    case "ENOENT":
      return `${prefix} does not exist. Use list_dir or search to find the right path.`;
    case "EACCES":
    case "EPERM":
      return `${prefix}: permission denied by the operating system. Choose another file.`;
    case "EISDIR":
      return `${prefix} is a folder, not a file. Use list_dir to see what it contains.`;
    case "ENOTDIR":
      return `${prefix}: a part of this path is a file, not a folder. Check the path with list_dir.`;
    case "EEXIST":
      return `${prefix}: something already exists where a folder is needed. Check the path with list_dir.`;
    case "ENAMETOOLONG":
      return `${prefix}: the name is too long for the filesystem. Use a shorter name.`;
    case "ENOSPC":
      return `${prefix}: the disk is full. Nothing was written.`;
    case "EROFS":
      return `${prefix}: the filesystem is read-only. Nothing was written.`;
    case "ELOOP":
      return `${prefix}: too many symbolic links to follow. Use the real path.`;
    default: {
      const message = error instanceof Error ? error.message : String(error);
      return `${prefix}: the operation failed (${message}).`;
    }
  }
}

export function formatBytes(size: number): string {
  if (size < 1024) return `${size} B`;
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KB`;
  return `${(size / (1024 * 1024)).toFixed(1)} MB`;
}
