import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { WorkingDirectory } from "../shared/working-directory";
import { ApplyEditTool } from "./apply-edit";
import { contextFor, RecordingIOHandler, temporaryFolder, writeTree } from "./test-support";
import { WriteFileTool } from "./write-file";

function setup(files: Record<string, string> = {}) {
  const root = temporaryFolder();
  writeTree(root, files);
  return { root, tool: new WriteFileTool(), ctx: contextFor(root) };
}

describe("write_file", () => {
  it("declares itself as a core, destructive filesystem tool", () => {
    const tool = new WriteFileTool();
    expect(tool).toMatchObject({ name: "write_file", title: "Write a File", origin: "core", verified: true, domain: "filesystem", rootSetting: "root" });
    expect(tool.settingsModel).toBe(WorkingDirectory);
    expect(tool.pathInputs).toEqual(["path"]);
    expect(tool.capabilities).toEqual(["file.write"]);
    expect(tool.isDestructive()).toBe(true);
    expect(tool.isReadOnly()).toBe(false);
  });

  it("creates a file and its missing folders, and says so", async () => {
    const { root, tool, ctx } = setup();
    const result = await tool.run({ path: "reports/2024/summary.md", content: "# Summary\n" }, ctx);
    expect(result.isError).toBe(false);
    expect(result.content).toBe("Created reports/2024/summary.md (10 bytes written).");
    expect(result.data).toEqual({ path: "reports/2024/summary.md", created: true, bytes: 10 });
    expect(readFileSync(path.join(root, "reports/2024/summary.md"), "utf8")).toBe("# Summary\n");
  });

  it("counts bytes, not characters", async () => {
    const { tool, ctx } = setup();
    const result = await tool.run({ path: "u.txt", content: "héllo" }, ctx);
    expect(result.data).toMatchObject({ bytes: 6 });
  });

  it("overwrites a file, keeps its permissions, and leaves no temporary file behind", async () => {
    const { root, tool, ctx } = setup({ "run.sh": "echo old\n" });
    chmodSync(path.join(root, "run.sh"), 0o750);
    const result = await tool.run({ path: "run.sh", content: "echo new\n" }, ctx);
    expect(result.content).toBe("Overwrote run.sh (9 bytes written; it held 9 bytes before).");
    expect(result.data).toMatchObject({ created: false });
    expect(readFileSync(path.join(root, "run.sh"), "utf8")).toBe("echo new\n");
    expect(statSync(path.join(root, "run.sh")).mode & 0o777).toBe(0o750);
    expect(readdirSync(root)).toEqual(["run.sh"]);
  });

  it("refuses a missing folder when createDirectories is false", async () => {
    const { root, tool, ctx } = setup();
    const result = await tool.run({ path: "new/a.txt", content: "x", createDirectories: false }, ctx);
    expect(result.isError).toBe(true);
    expect(result.content).toContain('the folder "new" does not exist');
    expect(result.content).toContain("createDirectories");
    expect(existsSync(path.join(root, "new"))).toBe(false);
  });

  it("refuses to replace a named pipe", async () => {
    const { root, tool, ctx } = setup();
    execFileSync("mkfifo", [path.join(root, "pipe")]);
    const result = await tool.run({ path: "pipe", content: "x" }, ctx);
    expect(result.isError).toBe(true);
    expect(result.content).toContain("not a regular file");
  });

  it("refuses to write over a folder, or inside a file", async () => {
    const { tool, ctx } = setup({ "docs/a.md": "a", "plain.txt": "p" });
    const folder = await tool.run({ path: "docs", content: "x" }, ctx);
    expect(folder.isError).toBe(true);
    expect(folder.content).toContain('`path`: "docs" is a folder');
    const insideFile = await tool.run({ path: "plain.txt/child.txt", content: "x" }, ctx);
    expect(insideFile.isError).toBe(true);
    expect(insideFile.content).toContain("`path`");
  });

  it("records the written file so a following apply_edit does not call it stale", async () => {
    const { root, tool, ctx } = setup();
    await tool.run({ path: "a.txt", content: "one\n" }, ctx);
    expect(ctx.fileState.get(path.join(root, "a.txt"))).toMatchObject({ size: 4 });
    const edit = await new ApplyEditTool().run({ path: "a.txt", edits: [{ oldText: "one", newText: "two" }] }, ctx);
    expect(edit.isError).toBe(false);
  });

  it("refuses guardrail-protected files", async () => {
    const { root, tool, ctx } = setup();
    const result = await tool.run({ path: "config/.env", content: "X=1" }, ctx);
    expect(result.isError).toBe(true);
    expect(result.content).toContain("guardrail");
    expect(existsSync(path.join(root, "config"))).toBe(false);
  });

  describe("in default mode", () => {
    it("asks before writing, showing every changed line as data, and writes once approved", async () => {
      const root = temporaryFolder();
      writeTree(root, { "notes.md": "alpha\nbeta\n" });
      const io = new RecordingIOHandler("once");
      const result = await new WriteFileTool().run({ path: "notes.md", content: "alpha\ngamma\n" }, contextFor(root, { mode: "default", io }));
      expect(result.isError).toBe(false);
      expect(io.writeRequests).toHaveLength(1);
      expect(io.writeRequests[0]!.path).toBe("notes.md");
      expect(io.writeRequests[0]!.summary).toBe("notes.md: +1 −1\n alpha\n-beta\n+gamma");
      expect(io.writeRequests[0]!.preview).toEqual({
        kind: "file-change",
        path: "notes.md",
        change: "modify",
        added: 1,
        removed: 1,
        rows: [
          { kind: "context", text: "alpha", oldNumber: 1, newNumber: 1 },
          { kind: "removed", text: "beta", oldNumber: 2, newNumber: null },
          { kind: "added", text: "gamma", oldNumber: null, newNumber: 2 },
        ],
      });
      expect(readFileSync(path.join(root, "notes.md"), "utf8")).toBe("alpha\ngamma\n");
    });

    it("shows a new file as added lines", async () => {
      const root = temporaryFolder();
      const io = new RecordingIOHandler("once");
      await new WriteFileTool().run({ path: "new.md", content: "hello\n" }, contextFor(root, { mode: "default", io }));
      expect(io.writeRequests[0]!.summary).toContain("new.md (new file): +1 −0\n");
      expect(io.writeRequests[0]!.preview).toMatchObject({ kind: "file-change", change: "create", added: 1, removed: 0 });
      expect(io.writeRequests[0]!.summary).toContain("+hello");
    });

    it("writes nothing when the person denies", async () => {
      const root = temporaryFolder();
      writeTree(root, { "notes.md": "keep me\n" });
      const io = new RecordingIOHandler("deny");
      const ctx = contextFor(root, { mode: "default", io });
      const overwrite = await new WriteFileTool().run({ path: "notes.md", content: "replaced\n" }, ctx);
      const create = await new WriteFileTool().run({ path: "sub/new.md", content: "new\n" }, ctx);
      expect(overwrite.isError).toBe(true);
      expect(overwrite.content).toContain("denied");
      expect(create.isError).toBe(true);
      expect(io.writeRequests).toHaveLength(2);
      expect(readFileSync(path.join(root, "notes.md"), "utf8")).toBe("keep me\n");
      expect(existsSync(path.join(root, "sub"))).toBe(false);
      expect(ctx.fileState.size).toBe(0);
    });

    it("asks again when the file changed while the approval was pending, showing what the write now replaces", async () => {
      const root = temporaryFolder();
      const target = path.join(root, "notes.md");
      writeTree(root, { "notes.md": "v1\n" });
      const io = new RecordingIOHandler("once", () => writeFileSync(target, "someone else's v2\n"));
      const result = await new WriteFileTool().run({ path: "notes.md", content: "mine\n" }, contextFor(root, { mode: "default", io }));
      expect(io.writeRequests.map((request) => request.summary)).toEqual(["notes.md: +1 −1\n-v1\n+mine", "notes.md: +1 −1\n-someone else's v2\n+mine"]);
      expect(result.isError).toBe(false);
      expect(readFileSync(target, "utf8")).toBe("mine\n");
    });

    it("writes nothing when the second approval, about the changed file, is denied", async () => {
      const root = temporaryFolder();
      const target = path.join(root, "notes.md");
      writeTree(root, { "notes.md": "v1\n" });
      let asked = 0;
      const io = new RecordingIOHandler("once", () => writeFileSync(target, "someone else's v2\n"));
      io.requestApproval = async () => {
        asked++;
        if (asked === 1) writeFileSync(target, "someone else's v2\n");
        return { decision: asked === 1 ? "once" : "deny" };
      };
      const result = await new WriteFileTool().run({ path: "notes.md", content: "mine\n" }, contextFor(root, { mode: "default", io }));
      expect(asked).toBe(2);
      expect(result.isError).toBe(true);
      expect(readFileSync(target, "utf8")).toBe("someone else's v2\n");
    });

    it("does not ask a person about a write that cannot happen", async () => {
      const root = temporaryFolder();
      writeTree(root, { "docs/a.md": "a" });
      const io = new RecordingIOHandler("once");
      const result = await new WriteFileTool().run({ path: "docs", content: "x" }, contextFor(root, { mode: "default", io }));
      expect(result.isError).toBe(true);
      expect(io.writeRequests).toHaveLength(0);
    });

    it("does not ask in accept_edits mode", async () => {
      const root = temporaryFolder();
      const io = new RecordingIOHandler("deny");
      const result = await new WriteFileTool().run({ path: "a.txt", content: "x" }, contextFor(root, { mode: "accept_edits", io }));
      expect(result.isError).toBe(false);
      expect(io.writeRequests).toHaveLength(0);
    });
  });
});
