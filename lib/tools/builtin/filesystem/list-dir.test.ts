import { mkdirSync, symlinkSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { WorkingDirectory } from "../shared/working-directory";
import { ListDirTool, MAX_LIST_ENTRIES, type DirectoryEntry } from "./list-dir";
import { contextFor, temporaryFolder, writeTree } from "./test-support";

function setup(files: Record<string, string> = {}) {
  const root = temporaryFolder();
  writeTree(root, files);
  return { root, tool: new ListDirTool(), ctx: contextFor(root) };
}

function paths(data: unknown): string[] {
  return (data as { entries: DirectoryEntry[] }).entries.map((entry) => entry.path);
}

describe("list_dir", () => {
  it("declares itself as a core, read-only filesystem tool", () => {
    const tool = new ListDirTool();
    expect(tool).toMatchObject({ name: "list_dir", title: "List a Directory", origin: "core", verified: true, domain: "filesystem", rootSetting: "root" });
    expect(tool.settingsModel).toBe(WorkingDirectory);
    expect(tool.pathInputs).toEqual(["path"]);
    expect(tool.capabilities).toEqual(["file.list"]);
    expect(tool.isReadOnly()).toBe(true);
  });

  it("lists the working folder by default, sorted, with types and sizes", async () => {
    const { tool, ctx } = setup({ "b.txt": "12345", "a.md": "1", "src/index.ts": "x" });
    const result = await tool.run({}, ctx);
    expect(result.isError).toBe(false);
    expect(result.content).toBe("The working folder: 3 entries.\na.md  1 B\nb.txt  5 B\nsrc/");
    expect((result.data as { entries: DirectoryEntry[] }).entries).toEqual([
      { path: "a.md", type: "file", size: 1 },
      { path: "b.txt", type: "file", size: 5 },
      { path: "src", type: "dir" },
    ]);
  });

  it("shows paths relative to the working folder when listing a subfolder", async () => {
    const { tool, ctx } = setup({ "src/lib/a.ts": "a", "src/main.ts": "m" });
    const result = await tool.run({ path: "src" }, ctx);
    expect(paths(result.data)).toEqual(["src/lib", "src/main.ts"]);
    expect(result.content.startsWith('"src": 2 entries.')).toBe(true);
  });

  it("hides dot entries unless asked, and never shows guardrail-protected ones", async () => {
    const { root, tool, ctx } = setup({ ".gitignore": "x", ".env": "SECRET=1", "visible.txt": "v", "secrets/key.txt": "k" });
    mkdirSync(path.join(root, ".git"));
    const plain = await tool.run({}, ctx);
    expect(paths(plain.data)).toEqual(["visible.txt"]);
    expect(plain.content).toContain("3 hidden entries");
    const hidden = await tool.run({ includeHidden: true }, ctx);
    expect(paths(hidden.data)).toEqual([".gitignore", "visible.txt"]);
    expect(hidden.content).not.toContain(".env");
  });

  it("lists recursively, children after their folder, without entering node_modules or .git", async () => {
    const { tool, ctx } = setup({
      "src/a/deep.ts": "d",
      "src/b.ts": "b",
      "node_modules/pkg/index.js": "x",
      "README.md": "r",
      ".git/config": "c",
    });
    const result = await tool.run({ recursive: true, includeHidden: true }, ctx);
    expect(paths(result.data)).toEqual(["README.md", "node_modules", "src", "src/a", "src/a/deep.ts", "src/b.ts"]);
    expect(result.content).toContain("node_modules/  (not listed)");
  });

  it("stops at maxDepth, which implies recursive", async () => {
    const { tool, ctx } = setup({ "a/b/c/d.txt": "d", "a/top.txt": "t" });
    const result = await tool.run({ maxDepth: 2 }, ctx);
    expect(paths(result.data)).toEqual(["a", "a/b", "a/top.txt"]);
    expect(result.content).toContain("a/b/  (not listed)");
  });

  it("shows symlinks as links and never follows them out", async () => {
    const { root, tool, ctx } = setup({ "inside/file.txt": "i" });
    const outside = temporaryFolder("neurosurfer-outside-");
    writeTree(outside, { "secret.txt": "s", "more/deep.txt": "d" });
    symlinkSync(outside, path.join(root, "out-dir"));
    symlinkSync(path.join(outside, "secret.txt"), path.join(root, "out-file"));
    symlinkSync("inside/file.txt", path.join(root, "in-link"));
    symlinkSync(path.join(root, "missing"), path.join(root, "broken"));
    const result = await tool.run({ recursive: true }, ctx);
    const entries = (result.data as { entries: DirectoryEntry[] }).entries;
    expect(entries).toEqual([
      { path: "broken", type: "symlink", target: null },
      { path: "in-link", type: "symlink", target: "inside/file.txt" },
      { path: "inside", type: "dir" },
      { path: "inside/file.txt", type: "file", size: 1 },
      { path: "out-dir", type: "symlink", target: null },
      { path: "out-file", type: "symlink", target: null },
    ]);
    expect(result.content).not.toContain(outside);
    expect(result.content).not.toContain("secret.txt");
    expect(result.content).toContain("in-link -> inside/file.txt");
  });

  it(`returns at most ${MAX_LIST_ENTRIES} entries and says how many were left out`, async () => {
    const files: Record<string, string> = {};
    for (let index = 0; index < MAX_LIST_ENTRIES + 150; index++) files[`many/f${String(index).padStart(5, "0")}.txt`] = "";
    const { tool, ctx } = setup(files);
    const result = await tool.run({ path: "many" }, ctx);
    expect(paths(result.data)).toHaveLength(MAX_LIST_ENTRIES);
    expect(result.data).toMatchObject({ leftOut: 150 });
    expect(result.content).toContain(`150 more entries left out after the first ${MAX_LIST_ENTRIES}`);
  });

  it("lets the event loop turn while it walks a large tree (its file system calls are synchronous)", async () => {
    const files: Record<string, string> = {};
    // Many small folders: yielding per folder would not be enough, the walk counts entries across them.
    for (let folder = 0; folder < 300; folder++) for (let file = 0; file < 3; file++) files[`tree/d${folder}/f${file}.txt`] = "x";
    const { tool, ctx } = setup(files);
    const nextTurn = new Promise<void>((resolve) => setImmediate(resolve));
    const result = tool.run({ path: "tree", recursive: true }, ctx);
    let finishedFirst = false;
    void result.then(() => (finishedFirst = true));
    await nextTurn;
    const stillWalking = !finishedFirst;
    const listing = await result;
    expect(listing.isError).toBe(false);
    expect(paths(listing.data)).toHaveLength(MAX_LIST_ENTRIES);
    // A walk that never yielded would have finished before the next turn of the loop.
    expect(stillWalking).toBe(true);
  });

  it("says an empty folder is empty", async () => {
    const { root, tool, ctx } = setup();
    mkdirSync(path.join(root, "empty"));
    const result = await tool.run({ path: "empty" }, ctx);
    expect(result.isError).toBe(false);
    expect(result.content).toBe('"empty" is empty.');
  });

  it("explains a file and a missing folder, naming the field", async () => {
    const { tool, ctx } = setup({ "a.txt": "a" });
    const file = await tool.run({ path: "a.txt" }, ctx);
    expect(file.isError).toBe(true);
    expect(file.content).toContain('`path`: "a.txt" is a file, not a folder');
    const missing = await tool.run({ path: "nope" }, ctx);
    expect(missing.isError).toBe(true);
    expect(missing.content).toContain('`path`: "nope" does not exist');
  });
});
