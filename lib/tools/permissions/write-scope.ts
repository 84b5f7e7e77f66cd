/**
 * Where "Always allow" on a write reaches: the written file's own folder and
 * everything under it. One rule for the gate that grants it and the card that
 * says what it will grant. Pure string work on paths relative to the root
 * (forward slashes), so it runs in the browser too.
 */

/** The folder of `relativePath`, "." for a file at the top of the root. */
export function alwaysAllowedFolder(relativePath: string): string {
  const slash = relativePath.lastIndexOf("/");
  return slash <= 0 ? "." : relativePath.slice(0, slash);
}

/** The write-scope glob a grant on `folder` adds: "**" for the root itself. */
export function folderGrantPattern(folder: string): string {
  return folder === "." ? "**" : `${folder}/**`;
}
