import { randomBytes } from "node:crypto";
import { chmod, mkdir, open, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { errorCode } from "./file-content";

/**
 * Writes `target` so that readers see either the old content or the new, never
 * half of it: a temporary file in the same folder (same filesystem), flushed,
 * then renamed over the target. An existing file keeps its permission bits.
 */
export async function writeFileAtomic(target: string, data: Buffer | string): Promise<void> {
  const folder = path.dirname(target);
  let mode: number | undefined;
  try {
    mode = (await stat(target)).mode & 0o7777;
  } catch (error) {
    if (errorCode(error) !== "ENOENT") throw error;
  }
  // A short name: the target's own name may already be near the length limit.
  const temporary = path.join(folder, `.neurosurfer-${randomBytes(8).toString("hex")}.tmp`);
  // "wx" = O_CREAT | O_EXCL: never opens an existing file or follows a planted symlink.
  const handle = await open(temporary, "wx", 0o666);
  try {
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (mode !== undefined) await chmod(temporary, mode);
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** Creates the folders above `target` that are missing. */
export async function ensureParentFolder(target: string): Promise<void> {
  await mkdir(path.dirname(target), { recursive: true });
}
