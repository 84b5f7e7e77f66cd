import { mkdtempSync, realpathSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AutoApproveIOHandler } from "./io-handler";
import { defineOperation } from "./operation";
import { SecretRefused, secretsFromRecord } from "./secrets";
import { RecordingIOHandler } from "./testing/recording-io-handler";
import { operationsInputModel, Tool } from "./tool";
import { createToolContext, type ToolContext, type ToolEvent } from "./tool-context";
import { ToolResult } from "./tool-result";

const EchoArgs = z.object({
  message: z.string().min(1).describe("What to echo."),
  times: z.number().int().min(1).max(5).default(1).describe("How often."),
  token: z.string().optional().describe("API token."),
});
type EchoArgs = z.infer<typeof EchoArgs>;

/** Echoes its message and, to prove masking, the secret it received. */
class EchoTool extends Tool<EchoArgs> {
  name = "echo";
  title = "Echo";
  description = "Echo a message.";
  inputModel = EchoArgs;
  secretInputs = ["token"];
  credentialHelp = "A token. Store it in Settings → Secrets and reference it as ${NAME}.";
  received: EchoArgs[] = [];

  override isReadOnly(): boolean {
    return true;
  }
  override checkSecret(_name: string, value: string): string {
    return value.startsWith("tok_") ? "" : 'does not look like a token (expected "tok_...")';
  }
  override async call(args: EchoArgs, ctx: ToolContext): Promise<ToolResult> {
    this.received.push(args);
    ctx.events.emit({ type: "tool-output", tool: this.name, text: `token is ${args.token}` });
    return ToolResult.ok(`${args.message.repeat(args.times)} (token ${args.token})`, { token: args.token });
  }
}

const NoteArgs = z.object({ path: z.string().describe("Where."), text: z.string() });

class NoteTool extends Tool<z.infer<typeof NoteArgs>> {
  name = "note";
  title = "Write a note";
  description = "Write a note.";
  inputModel = NoteArgs;
  settingsModel = z.object({ root: z.string().min(1).describe("The folder.") });
  rootSetting = "root";
  pathInputs = ["path"];
  capabilities = ["file.write" as const];
  seenPath: string | null = null;

  override async call(args: z.infer<typeof NoteArgs>): Promise<ToolResult> {
    this.seenPath = args.path;
    return ToolResult.ok("written");
  }
}

class CrashingTool extends Tool<{ token?: string }> {
  name = "crash";
  title = "Crash";
  description = "Throws.";
  inputModel = z.object({ token: z.string().optional() });
  secretInputs = ["token"];
  credentialHelp = "Any token.";
  override isReadOnly(): boolean {
    return true;
  }
  override async call(args: { token?: string }): Promise<ToolResult> {
    throw new Error(`driver exploded while using ${args.token}`);
  }
}

const calculator = new (class extends Tool {
  name = "calc";
  title = "Calculator";
  description = "Arithmetic.";
  capabilities = ["data.inspect" as const];
  operations = {
    add: defineOperation({
      title: "Add",
      description: "Add two numbers.",
      inputModel: z.object({ a: z.number(), b: z.number() }),
      capabilities: ["data.inspect"],
      readOnly: true,
      async execute(args) {
        return ToolResult.ok(String(args.a + args.b));
      },
    }),
    negate: defineOperation({
      title: "Negate",
      description: "Negate a number.",
      inputModel: z.object({ x: z.number() }),
      capabilities: ["data.inspect"],
      readOnly: false,
      async execute(args) {
        return ToolResult.ok(String(-args.x));
      },
    }),
  };
  inputModel = operationsInputModel(this.operations);
})();

const context = (overrides: Partial<Parameters<typeof createToolContext>[0]> = {}) =>
  createToolContext({ io: new AutoApproveIOHandler(), permissions: { mode: "bypass" }, ...overrides });

describe("argument validation", () => {
  it("names every bad field and what was expected, so a model can correct itself", async () => {
    const result = await new EchoTool().run({ message: 7, times: 9 }, context());
    expect(result.isError).toBe(true);
    expect(result.content).toContain("`message`: expected string, received number");
    expect(result.content).toMatch(/`times`: .*5/);
    expect(result).toMatchObject({ errorKind: "invalid-input", retryable: false });
  });

  it("refuses arguments that are not an object", async () => {
    const result = await new EchoTool().run(["hi"], context());
    expect(result).toMatchObject({ isError: true, content: expect.stringContaining("expected an object of named arguments, got a list") });
  });

  it("applies defaults and calls the tool with parsed arguments", async () => {
    const tool = new EchoTool();
    const result = await tool.run({ message: "ab", times: 2 }, context());
    expect(result).toMatchObject({ isError: false, content: "abab (token undefined)" });
  });

  it("validates a call against the chosen operation's own model", async () => {
    expect((await calculator.run({ operation: "add", a: 2, b: 3 }, context())).content).toBe("5");
    const wrong = await calculator.run({ operation: "add", x: 2 }, context());
    expect(wrong.isError).toBe(true);
    expect(wrong.content).toContain("`a`");
    expect(wrong.content).toContain("`b`");
    const unknown = await calculator.run({ operation: "divide" }, context());
    expect(unknown.content).toContain('unknown operation "divide"; expected one of add, negate');
    const missing = await calculator.run({ a: 1 }, context());
    expect(missing.content).toContain("`operation`: required");
  });

  it("answers the flags per operation", () => {
    expect(calculator.isReadOnly({ operation: "add" })).toBe(true);
    expect(calculator.isReadOnly({ operation: "negate" })).toBe(false);
    expect(calculator.isReadOnly()).toBe(false);
    expect(calculator.isDestructive({ operation: "negate" })).toBe(true);
    expect(calculator.isConcurrencySafe({ operation: "add" })).toBe(true);
  });

  it("reports a tool that throws as an error result instead of crashing the caller", async () => {
    const result = await new CrashingTool().run({}, context());
    expect(result).toMatchObject({ isError: true, content: "`crash` failed: driver exploded while using undefined", errorKind: "failed", retryable: false });
  });
});

describe("secret inputs", () => {
  const secrets = secretsFromRecord({ API_TOKEN: "tok_supersecret_123", BAD_TOKEN: "nope-not-a-token" });

  it("resolves ${NAME}, hands the real value to the tool, and masks it in results and events", async () => {
    const tool = new EchoTool();
    const events: ToolEvent[] = [];
    const result = await tool.run(
      { message: "hi" },
      context({ secrets, events: { emit: (event) => events.push(event) } }),
      { boundArgs: { token: "${API_TOKEN}" } },
    );
    expect(tool.received[0]?.token).toBe("tok_supersecret_123");
    expect(result.isError).toBe(false);
    expect(JSON.stringify(result)).not.toContain("tok_supersecret_123");
    expect(result.content).toContain("••••••");
    expect(JSON.stringify(events)).not.toContain("tok_supersecret_123");
    expect(events.some((event) => event.type === "tool-output")).toBe(true);
  });

  it("does not let the model set a secret input", async () => {
    const tool = new EchoTool();
    await tool.run({ message: "hi", token: "tok_from_the_model" }, context({ secrets }));
    expect(tool.received[0]?.token).toBeUndefined();
  });

  it("bound arguments override what the model sent", async () => {
    const tool = new EchoTool();
    await tool.run({ message: "from model", times: 3 }, context(), { boundArgs: { times: 1 } });
    expect(tool.received[0]?.times).toBe(1);
  });

  it("says which secret is missing and where to set it", async () => {
    const result = await new EchoTool().run({ message: "hi" }, context({ secrets }), { boundArgs: { token: "${MISSING}" } });
    expect(result.content).toBe("`token`: the secret ${MISSING} is not set. Store it in Settings → Secrets under the name MISSING.");
  });

  it("refuses a secret its resolver may not give here (limited to other workflows), naming the input and not the value", async () => {
    const limited = (name: string) => {
      if (name === "BILLING_TOKEN") throw new SecretRefused("is limited to other workflows");
      return undefined;
    };
    const tool = new EchoTool();
    const result = await tool.run({ message: "hi" }, context({ secrets: limited }), { boundArgs: { token: "${BILLING_TOKEN}" } });
    expect(result.isError).toBe(true);
    expect(result.content).toBe("`token`: the secret ${BILLING_TOKEN} is limited to other workflows.");
    expect(tool.received).toEqual([]);
  });

  it("tells set from usable with checkSecret, without echoing the value", async () => {
    const result = await new EchoTool().run({ message: "hi" }, context({ secrets }), { boundArgs: { token: "${BAD_TOKEN}" } });
    expect(result.isError).toBe(true);
    expect(result.content).toContain('the secret ${BAD_TOKEN} does not look like a token (expected "tok_...")');
    expect(result.content).not.toContain("nope-not-a-token");
  });

  it("masks a secret that a crashing tool put in its error message", async () => {
    const result = await new CrashingTool().run({}, context({ secrets }), { boundArgs: { token: "${API_TOKEN}" } });
    expect(result.isError).toBe(true);
    expect(result.content).not.toContain("tok_supersecret_123");
  });

  it("substitutes only declared secret inputs: ${NAME} elsewhere stays as written", async () => {
    const tool = new EchoTool();
    await tool.run({ message: "${API_TOKEN}" }, context({ secrets }));
    expect(tool.received[0]?.message).toBe("${API_TOKEN}");
  });
});

describe("settings, confinement and the gate", () => {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), "execute-tool-")));

  it("refuses invalid settings naming the settings field", async () => {
    const result = await new NoteTool().run({ path: "a.txt", text: "x" }, context({ settings: {} }));
    expect(result.content).toContain("`settings.root`");
  });

  it("hands the tool the confined absolute path", async () => {
    const tool = new NoteTool();
    const result = await tool.run({ path: "sub/a.txt", text: "x" }, context({ settings: { root } }));
    expect(result.isError).toBe(false);
    expect(tool.seenPath).toBe(path.join(root, "sub/a.txt"));
  });

  it("refuses an escape before the gate is even asked", async () => {
    const io = new RecordingIOHandler({ write: "once" });
    const tool = new NoteTool();
    const result = await tool.run({ path: "../x.txt", text: "x" }, context({ io, settings: { root }, permissions: { mode: "default" } }));
    expect(result).toMatchObject({ isError: true, errorKind: "confinement", retryable: false });
    expect(io.requests).toEqual([]);
    expect(tool.seenPath).toBeNull();
  });

  it("routes a destructive call through the gate and does not call the tool when denied", async () => {
    const io = new RecordingIOHandler({ write: { decision: "deny", feedback: "not now" } });
    const tool = new NoteTool();
    const result = await tool.run({ path: "a.txt", text: "x" }, context({ io, settings: { root }, permissions: { mode: "default" } }));
    // A denial says so, and is never worth trying again.
    expect(result).toMatchObject({ isError: true, content: expect.stringContaining("not now"), errorKind: "denied", retryable: false });
    expect(io.requests).toMatchObject([{ kind: "write", path: "a.txt" }]);
    expect(tool.seenPath).toBeNull();
  });

  it("asks about the confined path relative to the root, however the model spelled it", async () => {
    const io = new RecordingIOHandler({ write: "once" });
    const tool = new NoteTool();
    const spelled = path.join(root, "notes", "..", "reports", "./q3.md");
    const result = await tool.run({ path: spelled, text: "x" }, context({ io, settings: { root }, permissions: { mode: "default" } }));
    expect(result.isError).toBe(false);
    expect(io.asksOf("write")).toMatchObject([{ kind: "write", path: "reports/q3.md", root, alwaysFolder: "reports", edit: false }]);
  });

  it("checks a declared path against the guardrails once, at confinement", async () => {
    const io = new RecordingIOHandler({ write: "once" });
    const ctx = context({ io, settings: { root }, permissions: { mode: "default" } });
    let pathAllowReads = 0;
    const guardrails = ctx.permissions.guardrails;
    ctx.permissions.guardrails = {
      ...guardrails,
      get pathAllow() {
        pathAllowReads += 1;
        return guardrails.pathAllow;
      },
    };
    expect((await new NoteTool().run({ path: "a.txt", text: "x" }, ctx)).isError).toBe(false);
    expect(pathAllowReads).toBe(1);
  });

  it("does not start a call whose run was cancelled", async () => {
    const controller = new AbortController();
    controller.abort();
    const tool = new NoteTool();
    const result = await tool.run({ path: "a.txt", text: "x" }, context({ settings: { root }, signal: controller.signal }));
    expect(result.content).toContain("cancelled");
    expect(tool.seenPath).toBeNull();
  });

  it("emits the progress message when the call starts", async () => {
    const events: ToolEvent[] = [];
    await new NoteTool().run({ path: "a.txt", text: "x" }, context({ settings: { root }, events: { emit: (event) => events.push(event) } }));
    expect(events).toEqual([{ type: "tool-progress", tool: "note", message: "Write a note…" }]);
  });
});
