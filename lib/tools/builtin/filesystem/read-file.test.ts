import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { WorkingDirectory } from "../shared/working-directory";
import { DEFAULT_LINE_LIMIT, MAX_LINE_CHARACTERS, ReadFileTool } from "./read-file";
import { contextFor, temporaryFolder, writeTree } from "./test-support";

const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201ff6e2a1f8a0000000049454e44ae426082", "hex");
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]);
const GIF = Buffer.concat([Buffer.from("GIF89a"), Buffer.from([1, 0, 1, 0, 0, 0, 0, 0x3b])]);
const WEBP = Buffer.concat([Buffer.from("RIFF"), Buffer.from([0x1a, 0, 0, 0]), Buffer.from("WEBPVP8 "), Buffer.alloc(8)]);

function setup(files: Record<string, string | Buffer> = {}) {
  const root = temporaryFolder();
  writeTree(root, files);
  return { root, tool: new ReadFileTool(), ctx: contextFor(root) };
}

describe("read_file", () => {
  it("declares itself as a core, read-only filesystem tool confined by the root setting", () => {
    const tool = new ReadFileTool();
    expect(tool).toMatchObject({ name: "read_file", title: "Read a File", origin: "core", verified: true, domain: "filesystem", rootSetting: "root" });
    expect(tool.settingsModel).toBe(WorkingDirectory);
    expect(tool.pathInputs).toEqual(["path"]);
    expect(tool.capabilities).toEqual(["file.read"]);
    expect(tool.icon).toBeTruthy();
    expect(tool.isReadOnly()).toBe(true);
    expect(tool.isDestructive()).toBe(false);
    expect(tool.progressMessage({ path: "/srv/work/docs/README.md", lineNumbers: false })).toBe("Reading README.md…");
  });

  it("returns a small text file exactly, without notes", async () => {
    const { tool, ctx } = setup({ "docs/notes.md": "# Notes\nfirst\nsecond\n" });
    const result = await tool.run({ path: "docs/notes.md" }, ctx);
    expect(result.isError).toBe(false);
    expect(result.content).toBe("# Notes\nfirst\nsecond");
    expect(result.data).toMatchObject({ path: "docs/notes.md", startLine: 1, endLine: 3, totalLines: 3 });
  });

  it("numbers lines on request, padded to the widest number", async () => {
    const lines = Array.from({ length: 12 }, (_, index) => `line ${index + 1}`).join("\n");
    const { tool, ctx } = setup({ "a.txt": lines });
    const result = await tool.run({ path: "a.txt", offset: 8, limit: 3, lineNumbers: true }, ctx);
    expect(result.content.split("\n").slice(0, 3)).toEqual([" 8\tline 8", " 9\tline 9", "10\tline 10"]);
    expect(result.content).toContain("Lines 8–10 of 12");
    expect(result.content).toContain("offset=11");
  });

  it("reads a window and says how to read further", async () => {
    const lines = Array.from({ length: DEFAULT_LINE_LIMIT + 500 }, (_, index) => `row ${index + 1}`).join("\n");
    const { tool, ctx } = setup({ "big.log": lines });
    const first = await tool.run({ path: "big.log" }, ctx);
    expect(first.content.startsWith("row 1\nrow 2\n")).toBe(true);
    expect(first.content).toContain(`Lines 1–${DEFAULT_LINE_LIMIT} of ${DEFAULT_LINE_LIMIT + 500}`);
    expect(first.content).toContain(`call read_file with offset=${DEFAULT_LINE_LIMIT + 1}`);
    const rest = await tool.run({ path: "big.log", offset: DEFAULT_LINE_LIMIT + 1 }, ctx);
    expect(rest.content.startsWith(`row ${DEFAULT_LINE_LIMIT + 1}\n`)).toBe(true);
    expect(rest.content).not.toContain("to read further");
  });

  it("stays under the result limit when lines are long, and says where to continue", async () => {
    const lines = Array.from({ length: 200 }, (_, index) => `${index + 1} ${"x".repeat(500)}`).join("\n");
    const { tool, ctx } = setup({ "wide.txt": lines });
    const result = await tool.run({ path: "wide.txt" }, ctx);
    expect(result.content.length).toBeLessThanOrEqual(30_000);
    const data = result.data as { endLine: number };
    expect(data.endLine).toBeLessThan(200);
    expect(result.content).toContain(`offset=${data.endLine + 1}`);
  });

  it("cuts one enormous line instead of returning all of it", async () => {
    const { tool, ctx } = setup({ "min.js": `${"a".repeat(50_000)}\nnext` });
    const result = await tool.run({ path: "min.js" }, ctx);
    expect(result.content).toContain(`[line cut: 50000 characters]`);
    expect(result.content.split("\n")[0]!.length).toBeLessThan(MAX_LINE_CHARACTERS + 100);
    expect(result.content).toContain("\nnext");
  });

  it("drops carriage returns and a byte-order mark", async () => {
    const { tool, ctx } = setup({ "win.txt": "\uFEFFone\r\ntwo\r\n" });
    expect((await tool.run({ path: "win.txt" }, ctx)).content).toBe("one\ntwo");
  });

  it("says an empty file is empty", async () => {
    const { tool, ctx } = setup({ "empty.txt": "" });
    const result = await tool.run({ path: "empty.txt" }, ctx);
    expect(result.isError).toBe(false);
    expect(result.content).toContain("empty");
  });

  it("refuses an offset past the end, naming the field and the valid range", async () => {
    const { tool, ctx } = setup({ "a.txt": "1\n2\n3\n" });
    const result = await tool.run({ path: "a.txt", offset: 10 }, ctx);
    expect(result.isError).toBe(true);
    expect(result.content).toContain("`offset`");
    expect(result.content).toContain("from 1 to 3");
  });

  it("rejects a zero offset and a non-integer limit as invalid arguments", async () => {
    const { tool, ctx } = setup({ "a.txt": "1\n" });
    const result = await tool.run({ path: "a.txt", offset: 0, limit: 1.5 }, ctx);
    expect(result.isError).toBe(true);
    expect(result.content).toContain("`offset`");
    expect(result.content).toContain("`limit`");
  });

  it.each([
    ["a.png", PNG, "image/png"],
    ["photo.JPG", JPEG, "image/jpeg"],
    ["photo.jpeg", JPEG, "image/jpeg"],
    ["anim.gif", GIF, "image/gif"],
    ["pic.webp", WEBP, "image/webp"],
    ["mislabelled.jpg", PNG, "image/png"],
  ])("returns %s as an image for vision models", async (name, bytes, mediaType) => {
    const { tool, ctx } = setup({ [name]: bytes });
    const result = await tool.run({ path: name }, ctx);
    expect(result.isError).toBe(false);
    expect(result.images).toEqual([{ mediaType, data: bytes.toString("base64") }]);
    expect(result.content).toContain(name);
  });

  it("reads a text file that merely has an image name as text", async () => {
    const { tool, ctx } = setup({ "pointer.png": "version https://git-lfs.github.com/spec/v1\n" });
    const result = await tool.run({ path: "pointer.png" }, ctx);
    expect(result.images).toEqual([]);
    expect(result.content).toContain("git-lfs");
  });

  it("refuses binary files, including image-named ones whose bytes are not an image", async () => {
    const { tool, ctx } = setup({ "data.bin": Buffer.from([1, 2, 0, 3, 4]), "fake.png": Buffer.from([0, 1, 2, 3]) });
    const binary = await tool.run({ path: "data.bin" }, ctx);
    expect(binary.isError).toBe(true);
    expect(binary.content).toMatch(/`path`: "data.bin" is a binary file/);
    const fake = await tool.run({ path: "fake.png" }, ctx);
    expect(fake.isError).toBe(true);
    expect(fake.content).toContain("not a PNG, JPEG, GIF or WebP image");
  });

  it("explains a missing file and a folder, naming the field", async () => {
    const { tool, ctx } = setup({ "docs/a.md": "a" });
    const missing = await tool.run({ path: "docs/b.md" }, ctx);
    expect(missing.isError).toBe(true);
    expect(missing.content).toBe('`path`: "docs/b.md" does not exist. Use list_dir or search to find the right path.');
    const folder = await tool.run({ path: "docs" }, ctx);
    expect(folder.isError).toBe(true);
    expect(folder.content).toContain("is a folder");
    expect(folder.content).toContain("list_dir");
  });

  it("refuses a named pipe instead of blocking on it", async () => {
    const { root, tool, ctx } = setup();
    execFileSync("mkfifo", [path.join(root, "pipe")]);
    const result = await tool.run({ path: "pipe" }, ctx);
    expect(result.isError).toBe(true);
    expect(result.content).toContain('`path`: "pipe" is not a regular file');
  });

  it("records what it read, keyed by absolute path, for apply_edit", async () => {
    const { root, tool, ctx } = setup({ "a.txt": "hello\n", "a.png": PNG });
    await tool.run({ path: "a.txt" }, ctx);
    await tool.run({ path: "a.png" }, ctx);
    const absolute = path.join(root, "a.txt");
    expect(ctx.fileState.get(absolute)).toEqual({
      mtimeMs: statSync(absolute).mtimeMs,
      size: 6,
      hash: createHash("sha256").update("hello\n").digest("hex"),
    });
    expect(ctx.fileState.has(path.join(root, "a.png"))).toBe(true);
  });

  it("does not read guardrail-protected files", async () => {
    const { tool, ctx } = setup({ ".env": "API_KEY=secret", "keys/server.pem": "-----BEGIN" });
    for (const denied of [".env", "keys/server.pem"]) {
      const result = await tool.run({ path: denied }, ctx);
      expect(result.isError).toBe(true);
      expect(result.content).toContain("guardrail");
      expect(result.content).not.toContain("secret");
    }
  });
});
