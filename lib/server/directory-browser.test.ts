import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { browseRoots, DirectoryBrowseError, listDirectories } from "./directory-browser";

describe("directory browser", () => {
  let base: string;
  let root: string;
  let outside: string;

  beforeEach(() => {
    base = realpathSync(mkdtempSync(path.join(os.tmpdir(), "browse-")));
    root = path.join(base, "root");
    outside = path.join(base, "outside");
    for (const folder of ["projects/studio", "projects/notes", ".hidden", "Zeta", "alpha"]) mkdirSync(path.join(root, folder), { recursive: true });
    mkdirSync(path.join(outside, "private"), { recursive: true });
    writeFileSync(path.join(root, "file.txt"), "not a folder");
    symlinkSync(outside, path.join(root, "escape"));
    symlinkSync(path.join(root, "projects"), path.join(root, "shortcut"));
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  const expectError = async (promise: Promise<unknown>, status: number, text: RegExp) => {
    const error = await promise.then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(DirectoryBrowseError.isInstance(error)).toBe(true);
    expect((error as DirectoryBrowseError).status).toBe(status);
    expect((error as DirectoryBrowseError).message).toMatch(text);
  };

  it("lists sub-folders only, sorted, hidden ones left out unless asked", async () => {
    const listing = await listDirectories(root, { roots: [root] });
    expect(listing).toMatchObject({ path: root, root, parent: null, truncated: false, roots: [root] });
    // "escape" leads outside the roots, so it is not offered; "shortcut" stays inside.
    expect(listing.directories).toEqual(["alpha", "projects", "shortcut", "Zeta"]);
    const withHidden = await listDirectories(root, { roots: [root], includeHidden: true });
    expect(withHidden.directories).toContain(".hidden");
  });

  it("lists the first root without a path, and gives the parent below a root", async () => {
    expect((await listDirectories(undefined, { roots: [root] })).path).toBe(root);
    const nested = await listDirectories(path.join(root, "projects"), { roots: [root] });
    expect(nested).toMatchObject({ parent: root, directories: ["notes", "studio"] });
  });

  it("follows a link inside the roots to its real folder", async () => {
    const listing = await listDirectories(path.join(root, "shortcut"), { roots: [root] });
    expect(listing.path).toBe(path.join(root, "projects"));
  });

  it("refuses a link that points outside the roots with 403", async () => {
    await expectError(listDirectories(path.join(root, "escape"), { roots: [root] }), 403, /outside the folders/);
    await expectError(listDirectories(path.join(root, "escape", "private"), { roots: [root] }), 403, /STUDIO_BROWSE_ROOTS/);
  });

  it("refuses paths outside the roots, including by ..", async () => {
    await expectError(listDirectories(outside, { roots: [root] }), 403, /outside/);
    await expectError(listDirectories(`${root}/../outside`, { roots: [root] }), 403, /outside/);
    await expectError(listDirectories("/", { roots: [root] }), 403, /outside/);
  });

  it("says 404 for a missing folder, 422 for a relative path or a file", async () => {
    await expectError(listDirectories(path.join(root, "missing"), { roots: [root] }), 404, /no folder/);
    await expectError(listDirectories("projects", { roots: [root] }), 422, /relative path/);
    await expectError(listDirectories(path.join(root, "file.txt"), { roots: [root] }), 422, /not a folder/);
  });

  it("returns at most the limit and says it truncated", async () => {
    const many = path.join(root, "many");
    for (let index = 0; index < 12; index += 1) mkdirSync(path.join(many, `folder-${String(index).padStart(2, "0")}`), { recursive: true });
    const listing = await listDirectories(many, { roots: [root], limit: 10 });
    expect(listing.directories).toHaveLength(10);
    expect(listing.truncated).toBe(true);
    expect(listing.directories[0]).toBe("folder-00");
  });

  it("reads the roots from STUDIO_BROWSE_ROOTS, else the home folder", async () => {
    const roots = await browseRoots({ STUDIO_BROWSE_ROOTS: [root, outside, path.join(base, "gone")].join(path.delimiter) });
    expect(roots).toEqual([root, outside]);
    expect(await browseRoots({})).toEqual([realpathSync(os.homedir())]);
    await expect(browseRoots({ STUDIO_BROWSE_ROOTS: "relative/path" })).rejects.toThrow(/absolute path/);
  });

  it("picks the deepest root containing the folder", async () => {
    const listing = await listDirectories(path.join(root, "projects", "studio"), { roots: [root, path.join(root, "projects")] });
    expect(listing.root).toBe(path.join(root, "projects"));
  });
});
