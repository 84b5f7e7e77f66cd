import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { temporaryFolder, writeTree } from "../builtin/filesystem/test-support";
import { WriteFileTool } from "../builtin/filesystem/write-file";
import { RunCommandTool } from "../builtin/system/run-command";
import { secretsFromRecord } from "../secrets";
import { RecordingIOHandler } from "../testing/recording-io-handler";
import { Tool } from "../tool";
import { createToolContext } from "../tool-context";
import { ToolResult } from "../tool-result";
import { argumentChanges, describeEdit } from "./argument-changes";
import { checkEditedArguments } from "./argument-edit";

const PostArgs = z.object({ text: z.string().min(1), count: z.number().int(), token: z.string().optional() });

/** Says what it was called with, the token included (masking must hide it). */
class PostTool extends Tool<z.infer<typeof PostArgs>> {
  name = "post";
  title = "Post";
  description = "Post a message.";
  inputModel = PostArgs;
  secretInputs = ["token"];
  capabilities = ["web.request" as const];
  override async describeAction() {
    return [{ kind: "network" as const, method: "POST", url: "https://example.com/post", reason: "post", preview: { kind: "text" as const, text: "POST" } }];
  }
  override async call(args: z.infer<typeof PostArgs>): Promise<ToolResult> {
    return ToolResult.ok(`posted ${args.text} x${args.count} with ${args.token}`);
  }
}

describe("checkEditedArguments", () => {
  const tool = new PostTool();

  it("names each field that fails the tool's input model, as a model's call would be told", () => {
    const check = checkEditedArguments(tool, { text: "hi", count: 1 }, { text: "", count: "two" });
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.issues.map((issue) => issue.path)).toEqual(["text", "count"]);
    expect(check.issues[1]!.message).toMatch(/expected number/);
  });

  it("keeps a secret input left as shown (the mask, or a reference) and refuses one changed", () => {
    const kept = checkEditedArguments(tool, { text: "hi", count: 1, token: "••••••" }, { text: "bye", count: 2, token: "••••••" });
    expect(kept).toEqual({ ok: true, arguments: { text: "bye", count: 2, token: "••••••" } });
    const dropped = checkEditedArguments(tool, { text: "hi", count: 1, token: "${POST_TOKEN}" }, { text: "bye", count: 2 });
    expect(dropped).toEqual({ ok: true, arguments: { text: "bye", count: 2, token: "${POST_TOKEN}" } });
    const swapped = checkEditedArguments(tool, { text: "hi", count: 1, token: "${POST_TOKEN}" }, { text: "bye", count: 2, token: "${OTHER}" });
    expect(swapped).toMatchObject({ ok: false, issues: [{ path: "token", message: expect.stringMatching(/cannot be changed/) }] });
  });

  it("says which fields changed, from what to what", () => {
    const changes = argumentChanges({ command: "rm -rf build", timeout: 5 }, { command: "rm -rf build/tmp", timeout: 5, background: true });
    expect(changes).toEqual([
      { field: "command", from: "rm -rf build", to: "rm -rf build/tmp" },
      { field: "background", to: true },
    ]);
    expect(describeEdit(changes)).toBe(
      'A person edited this call before approving it; what ran is the edited call, not yours. Changed: `command` from "rm -rf build" to "rm -rf build/tmp"; `background` set to true.',
    );
  });
});

describe("executeTool with an edited approval", () => {
  it("runs the command the person approved, and its result says the call was edited", async () => {
    const root = temporaryFolder();
    const io = new RecordingIOHandler({ shell: { decision: "once", arguments: { operation: "run", command: "echo edited > edited.txt" } } });
    const ctx = createToolContext({ io, settings: { root }, permissions: { mode: "default" } });
    const result = await new RunCommandTool().run({ operation: "run", command: "echo original > original.txt" }, ctx);
    expect(result.isError).toBe(false);
    expect(readFileSync(path.join(root, "edited.txt"), "utf8")).toBe("edited\n");
    expect(existsSync(path.join(root, "original.txt"))).toBe(false);
    // One ask: the edit approved the edited command, nobody was asked about it again.
    expect(io.asksOf("shell")).toHaveLength(1);
    expect(result.edited).toEqual([{ field: "command", from: "echo original > original.txt", to: "echo edited > edited.txt" }]);
  });

  it("still refuses an edited path outside the root: a guardrail's no wins over the person's yes", async () => {
    const root = temporaryFolder();
    writeTree(root, { "notes.md": "old\n" });
    const io = new RecordingIOHandler({ write: { decision: "once", arguments: { path: "../escaped.md", content: "new\n" } } });
    const ctx = createToolContext({ io, settings: { root }, permissions: { mode: "default" } });
    const result = await new WriteFileTool().run({ path: "notes.md", content: "new\n" }, ctx);
    expect(result).toMatchObject({ isError: true, errorKind: "confinement" });
    expect(result.content).toMatch(/outside/);
    expect(existsSync(path.join(path.dirname(root), "escaped.md"))).toBe(false);
    expect(readFileSync(path.join(root, "notes.md"), "utf8")).toBe("old\n");
    // The refusal says the edited call was refused, not the model's.
    expect(result.edited).toEqual([{ field: "path", from: "notes.md", to: "../escaped.md" }]);
  });

  it("refuses an edited command holding direction-changing characters, as it refuses a model's", async () => {
    const root = temporaryFolder();
    const io = new RecordingIOHandler({ shell: { decision: "once", arguments: { operation: "run", command: "echo hi \u202E; touch spoofed.txt" } } });
    const ctx = createToolContext({ io, settings: { root }, permissions: { mode: "default" } });
    const result = await new RunCommandTool().run({ operation: "run", command: "echo hi" }, ctx);
    expect(result).toMatchObject({ isError: true, errorKind: "denied" });
    expect(result.content).toMatch(/^Refused by a guardrail: the command holds direction-changing Unicode characters/);
    expect(existsSync(path.join(root, "spoofed.txt"))).toBe(false);
  });

  it("keeps the stored secret when the edit shows it masked, and masks it in what it says changed", async () => {
    const io = new RecordingIOHandler({ network: { decision: "once", arguments: { text: "edited tok_123", count: 2, token: "••••••" } } });
    const ctx = createToolContext({ io, secrets: secretsFromRecord({ POST_TOKEN: "tok_123" }), permissions: { mode: "default" } });
    const result = await new PostTool().run({ text: "hello", count: 1 }, ctx, { boundArgs: { token: "${POST_TOKEN}" } });
    expect(result.isError).toBe(false);
    expect(result.content).toBe("posted edited •••••• x2 with ••••••");
    expect(result.edited).toEqual([
      { field: "text", from: "hello", to: "edited ••••••" },
      { field: "count", from: 1, to: 2 },
    ]);
  });
});
