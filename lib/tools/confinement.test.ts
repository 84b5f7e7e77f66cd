// Escape attempts against the path confinement, run through real tools on real folders:
// every one must be refused with an error result and leave everything outside the root untouched.
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ApplyEditTool, ListDirTool, ReadFileTool, SearchTool, WriteFileTool } from "./builtin/filesystem";
import { confinePath, isInside } from "./confinement";
import { AutoApproveIOHandler } from "./io-handler";
import type { Tool } from "./tool";
import { createToolContext, type ToolContext } from "./tool-context";

const SECRET = "TOP-SECRET";

/** The fixture: base/work is the root; base/work-evil and base/outside are not. */
interface Fixture {
  base: string;
  root: string;
  outside: string;
}

let fixture: Fixture;

beforeEach(() => {
  const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), "neurosurfer-confine-")));
  const root = path.join(base, "work");
  const outside = path.join(base, "outside");
  mkdirSync(path.join(root, "a/b"), { recursive: true });
  mkdirSync(path.join(base, "work-evil"));
  mkdirSync(outside);
  writeFileSync(path.join(root, "a/b/c.txt"), "inside\n");
  writeFileSync(path.join(root, "..notes.txt"), "dots\n");
  mkdirSync(path.join(root, "café"));
  writeFileSync(path.join(root, "café/naïve.txt"), "unicode\n");
  writeFileSync(path.join(root, "notes….txt"), "ellipsis\n");
  writeFileSync(path.join(base, "work-evil/f"), `evil ${SECRET}\n`);
  writeFileSync(path.join(outside, "secret.txt"), `${SECRET}\n`);

  const link = (target: string, name: string) => symlinkSync(target, path.join(root, name));
  link("../../outside", "a/escape");
  link(path.join(outside, "secret.txt"), "link-out-file");
  link(outside, "link-out-dir");
  link("chain2", "chain1");
  link("chain3", "chain2");
  link(outside, "chain3");
  link(path.join(outside, "created-by-dangling.txt"), "dangling-out");
  link(path.join(outside, "new-dir"), "dangling-dir-out");
  link("dangling-out", "dangling-chain");
  link("..", "up");
  link(base, "up-abs");
  link("loop2", "loop1");
  link("loop1", "loop2");
  link("a/b/c.txt", "inside-link");
  link("a", "inside-dir-link");
  link("a/created-via-link.txt", "inside-dangling");
  symlinkSync(root, path.join(base, "work-link"));
  fixture = { base, root, outside };
});

afterEach(() => {
  rmSync(fixture.base, { recursive: true, force: true });
});

function contextFor(root: unknown): ToolContext {
  return createToolContext({ io: new AutoApproveIOHandler(), settings: { root }, permissions: { mode: "bypass" } });
}

/** Everything under base except the root: path -> content, link target or "dir". */
function outsideState(): Record<string, string> {
  const state: Record<string, string> = {};
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const absolute = path.join(folder, name);
      if (absolute === fixture.root) continue;
      const stats = lstatSync(absolute);
      if (stats.isSymbolicLink()) state[absolute] = `-> ${readlinkSync(absolute)}`;
      else if (stats.isDirectory()) {
        state[absolute] = "dir";
        walk(absolute);
      } else state[absolute] = readFileSync(absolute, "utf8");
    }
  };
  walk(fixture.base);
  return state;
}

type Input = string | ((fixture: Fixture) => string);

// [what it tries, the path input]
const ESCAPES: [string, Input][] = [
  ["the parent itself", ".."],
  ["a file in the parent", "../x"],
  ["a sibling's file", "../outside/secret.txt"],
  ["far up", "../../../../../../../../etc/passwd"],
  ["down then too far up", "a/../../x"],
  ["deep down then too far up", "a/b/../../../outside/secret.txt"],
  ["./ then up", "./../x"],
  ["an absolute system file", "/etc/passwd"],
  ["an absolute path with .. from /", "/../etc/passwd"],
  ["a doubled leading slash", "//etc/passwd"],
  ["an absolute sibling sharing the root's prefix", ({ base }) => `${base}/work-evil/f`],
  ["the root, then up into the prefix sibling", ({ root }) => `${root}/../work-evil/f`],
  ["an absolute path outside", ({ outside }) => `${outside}/secret.txt`],
  ["a NUL byte", "a.txt\u0000../../x"],
  ["a NUL byte before the extension", "secret.txt\u0000.png"],
  ["URL-encoded ../", "%2e%2e%2fx"],
  ["URL-encoded dots only", "%2e%2e/outside/secret.txt"],
  ["upper-case URL encoding", "%2E%2E%2Foutside%2Fsecret.txt"],
  ["double URL encoding", "%252e%252e%252fx"],
  ["half-encoded ..%2f", "..%2fx"],
  ["encoded backslash", "..%5cx"],
  ["overlong UTF-8 encoding", "%c0%ae%c0%ae/x"],
  ["backslashes", "..\\..\\x"],
  ["backslashes after a folder", "a\\..\\..\\x"],
  ["a Windows drive with backslashes", "C:\\Windows\\System32\\drivers\\etc\\hosts"],
  ["a Windows drive with slashes", "C:/Windows"],
  ["a home folder", "~/x"],
  ["the home folder itself", "~"],
  ["a symlink to a file outside", "link-out-file"],
  ["a file through a symlinked folder outside", "link-out-dir/secret.txt"],
  ["a new file through a symlinked folder outside", "link-out-dir/new.txt"],
  ["a relative symlink escaping from a subfolder", "a/escape/secret.txt"],
  ["a chain of symlinks leading out", "chain1/secret.txt"],
  ["a dangling symlink pointing outside", "dangling-out"],
  ["a dangling symlink to a folder outside", "dangling-dir-out/f.txt"],
  ["a chain ending in a dangling symlink outside", "dangling-chain"],
  ["a symlink to the parent", "up/outside/secret.txt"],
  ["a symlink to the parent, into the prefix sibling", "up/work-evil/f"],
  ["an absolute symlink above the root", "up-abs/outside/secret.txt"],
  ["a symlink loop", "loop1"],
  ["a path through a symlink loop", "loop1/x"],
  ["a newline", "a\n../../x"],
  ["a carriage return", "a.txt\r"],
  ["an escape sequence", "\u001b[31mred.txt"],
  ["DEL", "a\u007f.txt"],
  ["a C1 control character (NEL)", "a\u0085b.txt"],
  ["a Unicode line separator", "a\u2028b.txt"],
  ["full-width dots", "\uFF0E\uFF0E/outside/secret.txt"],
  ["one-dot leaders", "\u2024\u2024/outside/secret.txt"],
  ["small full stops", "\uFE52\uFE52/x"],
  ["a full-width solidus", "..\uFF0Foutside\uFF0Fsecret.txt"],
  ["a division slash", "..\u2215outside\u2215secret.txt"],
  ["a fraction slash", "..\u2044x"],
  ["a full-width reverse solidus", "..\uFF3Cx"],
  ["a right-to-left override", "\u202Etxt.terces"],
  ["a zero-width space before ..", "\u200B../x"],
  ["a byte-order mark", "\uFEFF../x"],
];

// Read-only tools first, and write_file last: were confinement broken, the test
// fails on a read before anything (say /etc/passwd) could be overwritten.
const TOOLS: [Tool, (input: string) => Record<string, unknown>][] = [
  [new ReadFileTool(), (input) => ({ path: input })],
  [new ListDirTool(), (input) => ({ path: input, recursive: true })],
  [new SearchTool(), (input) => ({ pattern: SECRET, path: input })],
  [new ApplyEditTool(), (input) => ({ path: input, edits: [{ oldText: SECRET, newText: "pwned" }] })],
  [new WriteFileTool(), (input) => ({ path: input, content: "pwned\n" })],
];

function resolveInput(input: Input): string {
  return typeof input === "function" ? input(fixture) : input;
}

describe("path confinement, through the filesystem tools", () => {
  it(`has at least 30 escape attempts`, () => {
    expect(ESCAPES.length).toBeGreaterThanOrEqual(30);
  });

  it.each(ESCAPES)("refuses %s (%j)", async (_label, input) => {
    const target = resolveInput(input);
    const before = outsideState();
    for (const [tool, argsFor] of TOOLS) {
      const result = await tool.run(argsFor(target), contextFor(fixture.root));
      expect(result.isError, `${tool.name} should refuse ${JSON.stringify(target)} but said: ${result.content}`).toBe(true);
      expect(result.content).toContain("`path`");
      expect(result.content).not.toContain(SECRET);
      expect(result.images).toEqual([]);
    }
    expect(outsideState()).toEqual(before);
    expect(existsSync(path.join(fixture.outside, "created-by-dangling.txt"))).toBe(false);
    expect(existsSync(path.join(fixture.outside, "new-dir"))).toBe(false);
    expect(readFileSync(path.join(fixture.outside, "secret.txt"), "utf8")).toBe(`${SECRET}\n`);
  });

  it("says why, naming the input and what to give instead", async () => {
    const result = await new ReadFileTool().run({ path: "../outside/secret.txt" }, contextFor(fixture.root));
    expect(result.content).toBe(
      '`path`: "../outside/secret.txt" is outside the step\'s folder. Give a path inside the step\'s folder, relative to it (e.g. "notes/today.md").',
    );
    const link = await new ReadFileTool().run({ path: "link-out-file" }, contextFor(fixture.root));
    expect(link.content).toContain("through a symbolic link");
    const control = await new ReadFileTool().run({ path: "a\u202Eb" }, contextFor(fixture.root));
    expect(control.content).toContain("a\\u202eb");
  });

  const ALLOWED_READS: [string, Input, string][] = [
    ["a nested path", "a/b/c.txt", "inside"],
    ["a path with . and .. that stays inside", "./a/../a/b/c.txt", "inside"],
    ["repeated slashes", "a//b///c.txt", "inside"],
    ["an absolute path inside the root", ({ root }) => `${root}/a/b/c.txt`, "inside"],
    ["the root spelled through a symlink", ({ base }) => `${base}/work-link/a/b/c.txt`, "inside"],
    ["a symlink inside pointing inside", "inside-link", "inside"],
    ["a symlinked folder inside pointing inside", "inside-dir-link/b/c.txt", "inside"],
    ["a name that starts with two dots", "..notes.txt", "dots"],
    ["accented names", "café/naïve.txt", "unicode"],
    ["an ellipsis character in a name", "notes….txt", "ellipsis"],
  ];

  it.each(ALLOWED_READS)("allows reading %s", async (_label, input, content) => {
    const result = await new ReadFileTool().run({ path: resolveInput(input) }, contextFor(fixture.root));
    expect(result.isError, result.content).toBe(false);
    expect(result.content).toBe(content);
  });

  const ALLOWED_WRITES: [string, Input, string][] = [
    ["a new nested file", "a/b/new.txt", "a/b/new.txt"],
    ["a new file in new folders", "x/y/z.txt", "x/y/z.txt"],
    ["a path with . and ..", "./a/../a/b/new2.txt", "a/b/new2.txt"],
    ["an absolute path inside the root", ({ root }) => `${root}/abs.txt`, "abs.txt"],
    ["a symlink inside pointing inside (writes its target)", "inside-link", "a/b/c.txt"],
    ["a dangling symlink inside pointing inside (creates its target)", "inside-dangling", "a/created-via-link.txt"],
    ["a name that starts with two dots", "..notes.txt", "..notes.txt"],
  ];

  it.each(ALLOWED_WRITES)("allows writing %s", async (_label, input, landsAt) => {
    const before = outsideState();
    const result = await new WriteFileTool().run({ path: resolveInput(input), content: "written\n" }, contextFor(fixture.root));
    expect(result.isError, result.content).toBe(false);
    expect(readFileSync(path.join(fixture.root, landsAt), "utf8")).toBe("written\n");
    expect(outsideState()).toEqual(before);
  });

  it("writes through an inside symlink without replacing the link", async () => {
    await new WriteFileTool().run({ path: "inside-link", content: "new\n" }, contextFor(fixture.root));
    expect(lstatSync(path.join(fixture.root, "inside-link")).isSymbolicLink()).toBe(true);
  });

  it("allows listing the root itself", async () => {
    const result = await new ListDirTool().run({ path: "." }, contextFor(fixture.root));
    expect(result.isError).toBe(false);
    expect(result.content).toContain("a/");
  });
});

describe("the root setting", () => {
  const BAD_ROOTS: [string, (fixture: Fixture) => unknown][] = [
    ["missing", () => undefined],
    ["empty", () => ""],
    ["relative", () => "relative/folder"],
    ["dot", () => "."],
    ["not text", () => 42],
    ["a folder that does not exist", ({ base }) => `${base}/nope`],
    ["a file", ({ outside }) => `${outside}/secret.txt`],
    ["containing a NUL byte", ({ root }) => `${root}\u0000`],
  ];

  it.each(BAD_ROOTS)("refuses a root that is %s, naming settings.root", async (_label, rootFor) => {
    const root = rootFor(fixture);
    for (const [tool, argsFor] of TOOLS) {
      const ctx = createToolContext({
        io: new AutoApproveIOHandler(),
        settings: root === undefined ? {} : { root },
        permissions: { mode: "bypass" },
      });
      const result = await tool.run(argsFor("a/b/c.txt"), ctx);
      expect(result.isError, `${tool.name}: ${result.content}`).toBe(true);
      expect(result.content).toContain("settings.root");
    }
    expect(readFileSync(path.join(fixture.root, "a/b/c.txt"), "utf8")).toBe("inside\n");
  });

  it("accepts a root given through a symlink and reports paths against the real one", async () => {
    const ctx = contextFor(path.join(fixture.base, "work-link"));
    const result = await new WriteFileTool().run({ path: "via-link.txt", content: "x" }, ctx);
    expect(result.content).toBe("Created via-link.txt (1 bytes written).");
    expect(existsSync(path.join(fixture.root, "via-link.txt"))).toBe(true);
  });
});

describe("isInside and confinePath", () => {
  it("compares whole path segments", () => {
    expect(isInside("/srv/work", "/srv/work")).toBe(true);
    expect(isInside("/srv/work", "/srv/work/..notes")).toBe(true);
    expect(isInside("/srv/work", "/srv/work-evil/f")).toBe(false);
    expect(isInside("/srv/work", "/srv")).toBe(false);
    expect(isInside("/srv/work", "/srv/work/../x")).toBe(false);
  });

  it("returns the real absolute path", () => {
    expect(confinePath(fixture.root, "inside-link", "path")).toBe(path.join(fixture.root, "a/b/c.txt"));
    expect(confinePath(fixture.root, "new/file.txt", "path")).toBe(path.join(fixture.root, "new/file.txt"));
  });
});
