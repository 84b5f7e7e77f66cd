import { readdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { WorkingDirectory } from "../shared/working-directory";
import { ApplyEditTool } from "./apply-edit";
import { ReadFileTool } from "./read-file";
import { contextFor, RecordingIOHandler, temporaryFolder, writeTree } from "./test-support";

const SOURCE = "function greet(name) {\n  return 'Hello ' + name;\n}\n\nconst count = 1;\nconst total = count + 1;\n";

function setup(files: Record<string, string | Buffer> = { "src/app.js": SOURCE }) {
  const root = temporaryFolder();
  writeTree(root, files);
  return { root, tool: new ApplyEditTool(), ctx: contextFor(root), read: (relative: string) => readFileSync(path.join(root, relative), "utf8") };
}

describe("apply_edit", () => {
  it("declares itself as a core, destructive filesystem tool", () => {
    const tool = new ApplyEditTool();
    expect(tool).toMatchObject({ name: "apply_edit", title: "Edit a File", origin: "core", verified: true, domain: "filesystem", rootSetting: "root" });
    expect(tool.settingsModel).toBe(WorkingDirectory);
    expect(tool.pathInputs).toEqual(["path"]);
    expect(tool.capabilities).toEqual(["file.edit"]);
    expect(tool.isDestructive()).toBe(true);
  });

  it("replaces one exact text and shows the diff", async () => {
    const { tool, ctx, read } = setup();
    const result = await tool.run({ path: "src/app.js", edits: [{ oldText: "'Hello '", newText: "'Hi '" }] }, ctx);
    expect(result.isError).toBe(false);
    expect(result.content).toContain("Edited src/app.js: 1 edit, 1 replacement.");
    expect(result.content).toContain("-  return 'Hello ' + name;\n+  return 'Hi ' + name;");
    expect(read("src/app.js")).toBe(SOURCE.replace("'Hello '", "'Hi '"));
  });

  it("applies several edits in order, each to the result of the ones before", async () => {
    const { tool, ctx, read } = setup();
    const result = await tool.run(
      {
        path: "src/app.js",
        edits: [
          { oldText: "const count = 1;", newText: "const amount = 1;" },
          { oldText: "count + 1", newText: "amount + 1" },
        ],
      },
      ctx,
    );
    expect(result.isError).toBe(false);
    expect(read("src/app.js")).toContain("const amount = 1;\nconst total = amount + 1;");
  });

  it("writes nothing when a later edit does not apply, and names that edit", async () => {
    const { tool, ctx, read, root } = setup();
    const result = await tool.run(
      {
        path: "src/app.js",
        edits: [
          { oldText: "greet", newText: "welcome" },
          { oldText: "no such text", newText: "x" },
        ],
      },
      ctx,
    );
    expect(result.isError).toBe(true);
    expect(result.content).toContain("`edits[1].oldText`: not found");
    expect(result.content).toContain("Nothing was written");
    expect(read("src/app.js")).toBe(SOURCE);
    expect(readdirSync(path.join(root, "src"))).toEqual(["app.js"]);
  });

  it("hints when the text differs only in whitespace", async () => {
    const { tool, ctx } = setup();
    const result = await tool.run({ path: "src/app.js", edits: [{ oldText: "return    'Hello ' + name;", newText: "x" }] }, ctx);
    expect(result.content).toContain("differs only in whitespace");
  });

  it("refuses an ambiguous text unless replaceAll is set", async () => {
    const { tool, ctx, read } = setup({ "a.txt": "x = 1\ny = 2\nx = 3\n" });
    const ambiguous = await tool.run({ path: "a.txt", edits: [{ oldText: "x =", newText: "z =" }] }, ctx);
    expect(ambiguous.isError).toBe(true);
    expect(ambiguous.content).toContain("`edits[0].oldText`: found 2 times");
    expect(ambiguous.content).toContain("lines 1, 3");
    expect(ambiguous.content).toContain("edits[0].replaceAll");
    expect(read("a.txt")).toBe("x = 1\ny = 2\nx = 3\n");

    const all = await tool.run({ path: "a.txt", edits: [{ oldText: "x =", newText: "z =", replaceAll: true }] }, ctx);
    expect(all.isError).toBe(false);
    expect(all.content).toContain("2 replacements");
    expect(read("a.txt")).toBe("z = 1\ny = 2\nz = 3\n");
  });

  it("inserts replacement patterns such as $& literally", async () => {
    const { tool, ctx, read } = setup({ "a.txt": "price\n" });
    await tool.run({ path: "a.txt", edits: [{ oldText: "price", newText: "cost: $& $1 $$" }] }, ctx);
    expect(read("a.txt")).toBe("cost: $& $1 $$\n");
  });

  it("matches \\n-written text in a CRLF file and keeps its line endings", async () => {
    const { tool, ctx, read } = setup({ "win.txt": "one\r\ntwo\r\nthree\r\n" });
    const result = await tool.run({ path: "win.txt", edits: [{ oldText: "one\ntwo", newText: "uno\ndos" }] }, ctx);
    expect(result.isError).toBe(false);
    expect(read("win.txt")).toBe("uno\r\ndos\r\nthree\r\n");
  });

  it("keeps a byte-order mark", async () => {
    const { tool, ctx, root } = setup({ "bom.txt": "\uFEFFhello\n" });
    await tool.run({ path: "bom.txt", edits: [{ oldText: "hello", newText: "bye" }] }, ctx);
    expect(readFileSync(path.join(root, "bom.txt"))).toEqual(Buffer.from("\uFEFFbye\n", "utf8"));
  });

  it("refuses a file that changed since it was last read, and writes nothing", async () => {
    const { root, tool, ctx, read } = setup();
    await new ReadFileTool().run({ path: "src/app.js" }, ctx);
    writeFileSync(path.join(root, "src/app.js"), `${SOURCE}// added by someone else\n`);
    const result = await tool.run({ path: "src/app.js", edits: [{ oldText: "greet", newText: "welcome" }] }, ctx);
    expect(result.isError).toBe(true);
    expect(result.content).toContain("changed since you last read it");
    expect(result.content).toContain("read_file");
    expect(read("src/app.js")).toContain("greet");

    // Reading it again makes the edit possible.
    await new ReadFileTool().run({ path: "src/app.js" }, ctx);
    expect((await tool.run({ path: "src/app.js", edits: [{ oldText: "greet", newText: "welcome" }] }, ctx)).isError).toBe(false);
  });

  it("does not call a touched but unchanged file stale", async () => {
    const { root, tool, ctx } = setup();
    await new ReadFileTool().run({ path: "src/app.js" }, ctx);
    const later = new Date(Date.now() + 60_000);
    utimesSync(path.join(root, "src/app.js"), later, later);
    expect((await tool.run({ path: "src/app.js", edits: [{ oldText: "greet", newText: "welcome" }] }, ctx)).isError).toBe(false);
  });

  it("proceeds without a snapshot, and keeps its own edits from looking stale", async () => {
    const { tool, ctx, read } = setup();
    expect((await tool.run({ path: "src/app.js", edits: [{ oldText: "count = 1", newText: "count = 2" }] }, ctx)).isError).toBe(false);
    expect((await tool.run({ path: "src/app.js", edits: [{ oldText: "count = 2", newText: "count = 3" }] }, ctx)).isError).toBe(false);
    expect(read("src/app.js")).toContain("count = 3");
  });

  it("explains missing, folder, binary and no-op edits", async () => {
    const { tool, ctx } = setup({ "src/app.js": SOURCE, "blob.bin": Buffer.from([0, 1, 2]) });
    const missing = await tool.run({ path: "src/nope.js", edits: [{ oldText: "a", newText: "b" }] }, ctx);
    expect(missing.content).toContain("does not exist. To create a file, use write_file.");
    const folder = await tool.run({ path: "src", edits: [{ oldText: "a", newText: "b" }] }, ctx);
    expect(folder.content).toContain("is a folder");
    const binary = await tool.run({ path: "blob.bin", edits: [{ oldText: "a", newText: "b" }] }, ctx);
    expect(binary.content).toContain("binary file");
    const same = await tool.run({ path: "src/app.js", edits: [{ oldText: "greet", newText: "greet" }] }, ctx);
    expect(same.content).toContain("`edits[0]`: oldText and newText are the same");
    for (const result of [missing, folder, binary, same]) expect(result.isError).toBe(true);
  });

  it("rejects an empty edit list and an empty oldText as invalid arguments", async () => {
    const { tool, ctx } = setup();
    const none = await tool.run({ path: "src/app.js", edits: [] }, ctx);
    expect(none.isError).toBe(true);
    expect(none.content).toContain("`edits`");
    const empty = await tool.run({ path: "src/app.js", edits: [{ oldText: "", newText: "x" }] }, ctx);
    expect(empty.content).toContain("`edits[0].oldText`");
  });

  describe("in default mode", () => {
    it("asks with the diff of the edit, and writes once approved", async () => {
      const root = temporaryFolder();
      writeTree(root, { "src/app.js": SOURCE });
      const io = new RecordingIOHandler("once");
      const result = await new ApplyEditTool().run(
        { path: "src/app.js", edits: [{ oldText: "count = 1", newText: "count = 5" }] },
        contextFor(root, { mode: "default", io }),
      );
      expect(result.isError).toBe(false);
      expect(io.writeRequests).toEqual([
        { path: "src/app.js", summary: expect.stringContaining("src/app.js: +1 −1\n"), preview: expect.objectContaining({ kind: "file-change", added: 1, removed: 1 }) },
      ]);
      expect(io.writeRequests[0]!.summary).toContain("-const count = 1;\n+const count = 5;");
      expect(readFileSync(path.join(root, "src/app.js"), "utf8")).toContain("count = 5");
    });

    it("marks the request as an edit", async () => {
      const root = temporaryFolder();
      writeTree(root, { "a.txt": "a\n" });
      // call() and describeAction() receive confined absolute paths and a context with its root set.
      const requests = await new ApplyEditTool().describeAction(
        { path: path.join(root, "a.txt"), edits: [{ oldText: "a", newText: "c", replaceAll: false }] },
        { ...contextFor(root), settings: { root }, root },
      );
      expect(requests).toEqual([
        {
          kind: "write",
          path: path.join(root, "a.txt"),
          preview: {
            kind: "file-change",
            path: "a.txt",
            change: "modify",
            added: 1,
            removed: 1,
            rows: [
              { kind: "removed", text: "a", oldNumber: 1, newNumber: null },
              { kind: "added", text: "c", oldNumber: null, newNumber: 1 },
            ],
          },
          edit: true,
        },
      ]);
    });

    it("writes nothing when the person denies", async () => {
      const root = temporaryFolder();
      writeTree(root, { "src/app.js": SOURCE });
      const io = new RecordingIOHandler("deny");
      const result = await new ApplyEditTool().run(
        { path: "src/app.js", edits: [{ oldText: "count = 1", newText: "count = 5" }] },
        contextFor(root, { mode: "default", io }),
      );
      expect(result.isError).toBe(true);
      expect(io.writeRequests).toHaveLength(1);
      expect(readFileSync(path.join(root, "src/app.js"), "utf8")).toBe(SOURCE);
    });

    it("does not ask about an edit that cannot apply", async () => {
      const root = temporaryFolder();
      writeTree(root, { "src/app.js": SOURCE });
      const io = new RecordingIOHandler("once");
      const result = await new ApplyEditTool().run(
        { path: "src/app.js", edits: [{ oldText: "not there", newText: "x" }] },
        contextFor(root, { mode: "default", io }),
      );
      expect(result.isError).toBe(true);
      expect(result.content).toContain("`edits[0].oldText`");
      expect(io.writeRequests).toHaveLength(0);
    });

    it("asks again when the file changed while the approval was pending, and edits the file as it now is", async () => {
      const root = temporaryFolder();
      const target = path.join(root, "src/app.js");
      writeTree(root, { "src/app.js": SOURCE });
      const io = new RecordingIOHandler("once", () => writeFileSync(target, `// header\n${SOURCE}`));
      const result = await new ApplyEditTool().run(
        { path: "src/app.js", edits: [{ oldText: "count = 1", newText: "count = 5" }] },
        contextFor(root, { mode: "default", io }),
      );
      expect(io.writeRequests).toHaveLength(2);
      const numberOf = (index: number) =>
        io.writeRequests[index]!.preview?.kind === "file-change" ? io.writeRequests[index]!.preview.rows.find((row) => row.kind === "removed") : null;
      expect(numberOf(0)).toMatchObject({ text: "const count = 1;", oldNumber: 5 });
      expect(numberOf(1)).toMatchObject({ text: "const count = 1;", oldNumber: 6 });
      expect(result.isError).toBe(false);
      expect(readFileSync(target, "utf8")).toBe(`// header\n${SOURCE.replace("count = 1", "count = 5")}`);
    });
  });
});
