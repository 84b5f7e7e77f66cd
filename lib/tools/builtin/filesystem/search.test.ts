import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createToolContext } from "../../tool-context";
import { AutoApproveIOHandler } from "../../io-handler";
import { WorkingDirectory } from "../shared/working-directory";
import { detectGrep, SearchTool, type SearchMatch } from "./search";
import { contextFor, temporaryFolder, writeTree } from "./test-support";

function setup(files: Record<string, string | Buffer> = {}) {
  const root = temporaryFolder();
  writeTree(root, files);
  return { root, tool: new SearchTool(), ctx: contextFor(root) };
}

function matches(data: unknown): SearchMatch[] {
  return (data as { matches: SearchMatch[] }).matches;
}

const PROJECT = {
  "src/app.ts": "import { load } from './load';\nexport function main() {\n  return load('config');\n}\n",
  "src/load.ts": "export function load(name: string) {\n  // TODO: cache\n  return name;\n}\n",
  "src/view.tsx": "export const View = () => <div>TODO</div>;\n",
  "docs/notes.md": "Remember the TODO list.\n",
};

describe("search", () => {
  it("declares itself as a core, read-only subprocess tool whose only path input is path", () => {
    const tool = new SearchTool();
    expect(tool).toMatchObject({ name: "search", title: "Search Files", origin: "core", verified: true, domain: "filesystem", runtime: "local_subprocess" });
    expect(tool.settingsModel).toBe(WorkingDirectory);
    expect(tool.rootSetting).toBe("root");
    expect(tool.pathInputs).toEqual(["path"]);
    expect(tool.capabilities).toEqual(["file.search"]);
    expect(tool.isReadOnly()).toBe(true);
    expect(tool.isEnabled()).toBe(true);
  });

  it("returns path:line: text for every match, sorted, with structured matches", async () => {
    const { tool, ctx } = setup(PROJECT);
    const result = await tool.run({ pattern: "TODO" }, ctx);
    expect(result.isError).toBe(false);
    expect(result.content).toBe(
      [
        "3 matches in 3 files for /TODO/ in the working folder:",
        "docs/notes.md:1: Remember the TODO list.",
        "src/load.ts:2:   // TODO: cache",
        "src/view.tsx:1: export const View = () => <div>TODO</div>;",
      ].join("\n"),
    );
    expect(matches(result.data)).toEqual([
      { path: "docs/notes.md", line: 1, text: "Remember the TODO list." },
      { path: "src/load.ts", line: 2, text: "  // TODO: cache" },
      { path: "src/view.tsx", line: 1, text: "export const View = () => <div>TODO</div>;" },
    ]);
  });

  it("says when nothing matches, without calling it an error", async () => {
    const { tool, ctx } = setup(PROJECT);
    const result = await tool.run({ pattern: "nothing-like-this" }, ctx);
    expect(result.isError).toBe(false);
    expect(result.content).toBe("No matches for /nothing-like-this/ in the working folder.");
    expect(result.data).toEqual({ matches: [] });
  });

  it("reports an invalid regular expression as an error naming the pattern", async () => {
    const { tool, ctx } = setup(PROJECT);
    const result = await tool.run({ pattern: "load(" }, ctx);
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/^`pattern`: "load\(" is not a valid regular expression/);
  });

  it("treats the pattern as a regular expression, not a path", async () => {
    const { tool, ctx } = setup({ "a.txt": "see ../../etc/passwd for details\n" });
    const result = await tool.run({ pattern: "\\.\\./\\.\\./etc/passwd" }, ctx);
    expect(matches(result.data)).toEqual([{ path: "a.txt", line: 1, text: "see ../../etc/passwd for details" }]);
  });

  it("handles a pattern that starts with a dash", async () => {
    const { tool, ctx } = setup({ "a.txt": "flag --verbose here\n" });
    const result = await tool.run({ pattern: "--verbose" }, ctx);
    expect(matches(result.data)).toHaveLength(1);
  });

  it.runIf(detectGrep().perl)("understands Perl-style classes and lookarounds", async () => {
    const { tool, ctx } = setup({ "a.txt": "id 42\nid x\nfoobar\nfoobaz\n" });
    expect(matches((await tool.run({ pattern: "id \\d+" }, ctx)).data).map((match) => match.line)).toEqual([1]);
    expect(matches((await tool.run({ pattern: "foo(?=baz)" }, ctx)).data).map((match) => match.line)).toEqual([4]);
  });

  it("ignores case when caseSensitive is false", async () => {
    const { tool, ctx } = setup({ "a.txt": "Hello\nhello\nHELLO\n" });
    expect(matches((await tool.run({ pattern: "hello" }, ctx)).data)).toHaveLength(1);
    expect(matches((await tool.run({ pattern: "hello", caseSensitive: false }, ctx)).data)).toHaveLength(3);
  });

  it("limits the search to a folder or a single file", async () => {
    const { tool, ctx } = setup(PROJECT);
    const folder = await tool.run({ pattern: "TODO", path: "src" }, ctx);
    expect(matches(folder.data).map((match) => match.path)).toEqual(["src/load.ts", "src/view.tsx"]);
    expect(folder.content).toContain('in "src"');
    const file = await tool.run({ pattern: "load", path: "src/app.ts" }, ctx);
    expect(matches(file.data).map((match) => `${match.path}:${match.line}`)).toEqual(["src/app.ts:1", "src/app.ts:3"]);
  });

  it("filters file names with a glob: plain, with braces, or with folders", async () => {
    const { tool, ctx } = setup(PROJECT);
    const plain = await tool.run({ pattern: "TODO", glob: "*.ts" }, ctx);
    expect(matches(plain.data).map((match) => match.path)).toEqual(["src/load.ts"]);
    const braces = await tool.run({ pattern: "TODO", glob: "*.{ts,tsx}" }, ctx);
    expect(matches(braces.data).map((match) => match.path)).toEqual(["src/load.ts", "src/view.tsx"]);
    const folders = await tool.run({ pattern: "TODO", glob: "docs/**/*.md" }, ctx);
    expect(matches(folders.data).map((match) => match.path)).toEqual(["docs/notes.md"]);
  });

  it("skips binary files, .git and node_modules", async () => {
    const { tool, ctx } = setup({
      "src/a.ts": "needle\n",
      "image.bin": Buffer.concat([Buffer.from("needle"), Buffer.from([0, 1, 2])]),
      ".git/HEAD": "needle\n",
      "node_modules/pkg/index.js": "needle\n",
      "deep/node_modules/x.js": "needle\n",
    });
    const result = await tool.run({ pattern: "needle" }, ctx);
    expect(matches(result.data).map((match) => match.path)).toEqual(["src/a.ts"]);
  });

  it("skips named pipes instead of blocking on them", async () => {
    const { root, tool, ctx } = setup({ "a.txt": "needle\n" });
    execFileSync("mkfifo", [path.join(root, "pipe")]);
    const result = await tool.run({ pattern: "needle" }, ctx);
    expect(matches(result.data).map((match) => match.path)).toEqual(["a.txt"]);
  });

  it("never reports guardrail-protected files", async () => {
    const { tool, ctx } = setup({ ".env": "API_KEY=needle", "certs/server.key": "needle", "config/secrets/db.txt": "needle", "ok.txt": "needle" });
    const result = await tool.run({ pattern: "needle" }, ctx);
    expect(matches(result.data).map((match) => match.path)).toEqual(["ok.txt"]);
    expect(result.content).not.toContain("API_KEY");
  });

  it("does not follow symlinks out of the working folder", async () => {
    const { root, tool, ctx } = setup({ "inside.txt": "needle inside\n" });
    const outside = temporaryFolder("neurosurfer-outside-");
    writeTree(outside, { "secret.txt": "needle outside\n" });
    symlinkSync(outside, path.join(root, "out-dir"));
    symlinkSync(path.join(outside, "secret.txt"), path.join(root, "out-file.txt"));
    const result = await tool.run({ pattern: "needle" }, ctx);
    expect(matches(result.data).map((match) => match.path)).toEqual(["inside.txt"]);
    expect(result.content).not.toContain("outside");
  });

  it("stops at maxResults and says there are more", async () => {
    const lines = Array.from({ length: 50 }, (_, index) => `match ${index}`).join("\n");
    const { tool, ctx } = setup({ "a.txt": lines, "b.txt": lines });
    const result = await tool.run({ pattern: "match", maxResults: 10 }, ctx);
    expect(matches(result.data)).toHaveLength(10);
    expect(result.data).toMatchObject({ truncated: true });
    expect(result.content).toContain("Showing the first 10 matches; there are more");
    expect(result.content.startsWith("10+ matches")).toBe(true);
  });

  it("cuts very long matching lines", async () => {
    const { tool, ctx } = setup({ "min.js": `var a="needle";${"x".repeat(10_000)}\n` });
    const result = await tool.run({ pattern: "needle" }, ctx);
    expect(matches(result.data)[0]!.text.length).toBeLessThan(600);
    expect(result.content).toContain("[line cut:");
  });

  it("rejects an out-of-range maxResults and a missing pattern as invalid arguments", async () => {
    const { tool, ctx } = setup(PROJECT);
    const result = await tool.run({ maxResults: 5000 }, ctx);
    expect(result.isError).toBe(true);
    expect(result.content).toContain("`pattern`");
    expect(result.content).toContain("`maxResults`");
  });

  it("explains a missing path", async () => {
    const { tool, ctx } = setup(PROJECT);
    const result = await tool.run({ pattern: "x", path: "nowhere" }, ctx);
    expect(result.isError).toBe(true);
    expect(result.content).toContain('`path`: "nowhere" does not exist');
  });

  it("stops when the run is cancelled", async () => {
    const { root } = setup(PROJECT);
    const controller = new AbortController();
    controller.abort();
    const ctx = { ...createToolContext({ io: new AutoApproveIOHandler(), signal: controller.signal }), settings: { root }, root };
    // Straight to call(): run() would refuse before starting, and the search's own handling is what is tested.
    const result = await new SearchTool().call({ pattern: "TODO", path: root, caseSensitive: true, maxResults: 200 }, ctx);
    expect(result.isError).toBe(true);
    expect(result.content).toContain("cancelled");
  });

  // Creating 10,000 files is the slow part on a busy machine; the search itself takes a fraction of a second.
  it("searches 10,000 files correctly", { timeout: 120_000 }, async () => {
    const root = temporaryFolder("neurosurfer-search-10k-");
    for (let folder = 0; folder < 100; folder++) {
      const dir = path.join(root, `pkg${folder}`, "src");
      mkdirSync(dir, { recursive: true });
      for (let file = 0; file < 100; file++) {
        const index = folder * 100 + file;
        const needle = index % 97 === 0 ? `\nconst marker = "needle-${index}";\n` : "\n";
        writeFileSync(path.join(dir, `file${file}.ts`), `// file ${index}${needle}export const value${index} = ${index};\n`);
      }
    }
    const expected = Array.from({ length: 10_000 }, (_, index) => index).filter((index) => index % 97 === 0);
    const result = await new SearchTool().run({ pattern: "needle-\\d+", maxResults: 1000 }, contextFor(root));
    expect(result.isError).toBe(false);
    const found = matches(result.data);
    expect(found).toHaveLength(expected.length);
    expect(found.map((match) => Number(/needle-(\d+)/.exec(match.text)![1])).sort((a, b) => a - b)).toEqual(expected);
    for (const match of found) {
      const index = Number(/needle-(\d+)/.exec(match.text)![1]);
      expect(match).toEqual({ path: `pkg${Math.floor(index / 100)}/src/file${index % 100}.ts`, line: 2, text: `const marker = "needle-${index}";` });
    }
    expect(result.content).toContain(`${expected.length} matches in ${expected.length} files`);

    const capped = await new SearchTool().run({ pattern: "export const value" }, contextFor(root));
    expect(matches(capped.data)).toHaveLength(200);
    expect(capped.data).toMatchObject({ truncated: true });
  });
});
