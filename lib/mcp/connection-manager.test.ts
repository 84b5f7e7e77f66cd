import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createScriptContext, createToolContext, secretsFromRecord, ToolPool, type ToolContext } from "@/lib/tools";
import { RecordingIOHandler } from "@/lib/tools/testing/recording-io-handler";
import {
  filesystemServerCommand,
  startHttpTestServer,
  testServerCommand,
  type HttpTestServer,
} from "@/tests/support/test-mcp-servers";
import { McpConnectionManager } from "./connection-manager";
import type { McpServerEntry } from "./connection";
import type { McpTool } from "./mcp-tool";

// Real server processes: the one written for these tests (stdio and HTTP) and
// the published @modelcontextprotocol/server-filesystem (stdio).

const folder = mkdtempSync(path.join(os.tmpdir(), "mcp-manager-"));
const secrets = secretsFromRecord({ NOTES_FOLDER: folder, HTTP_TOKEN: "s3cret-token" });
let http: HttpTestServer;
let manager: McpConnectionManager;

function stdioServer(overrides: Partial<McpServerEntry> = {}): McpServerEntry {
  return {
    id: "stdio",
    name: "tests",
    transport: "stdio",
    enabled: true,
    toolPrefix: null,
    maxCallSeconds: null,
    ...testServerCommand(),
    env: { NOTES_DIR: "${NOTES_FOLDER}" },
    cwd: null,
    ...overrides,
  } as McpServerEntry;
}

function tool(name: string): McpTool {
  const found = manager.tools().find((each) => each.name === name);
  if (!found) throw new Error(`no tool ${name}; have ${manager.tools().map((each) => each.name).join(", ")}`);
  return found;
}

const context = (): ToolContext => createScriptContext();

beforeAll(async () => {
  http = await startHttpTestServer({ token: "s3cret-token" });
  manager = new McpConnectionManager({
    secrets,
    reservedNames: () => ["read_file", "write_file", "list_dir"],
    timeouts: { callMs: 1_500 },
  });
  await manager.configure([
    stdioServer(),
    { id: "http", name: "web", transport: "http", enabled: true, toolPrefix: "remote", maxCallSeconds: null, url: http.url, headers: { Authorization: "Bearer ${HTTP_TOKEN}" } },
    { id: "files", name: "files", transport: "stdio", enabled: true, toolPrefix: null, maxCallSeconds: null, ...filesystemServerCommand(folder), env: {}, cwd: null },
  ]);
}, 60_000);

afterAll(async () => {
  await manager?.close();
  await http?.stop();
  rmSync(folder, { recursive: true, force: true });
});

describe("connections", () => {
  it("connects to every server and lists their tools", () => {
    const status = manager.status();
    expect(status.map((each) => [each.name, each.state, each.error])).toEqual([
      ["files", "connected", null],
      ["tests", "connected", null],
      ["web", "connected", null],
    ]);
    expect(status.find((each) => each.name === "tests")?.tools.map((each) => each.name)).toEqual(
      expect.arrayContaining(["echo", "write_note", "slow", "crash", "bad"]),
    );
  });

  it("resolves name clashes: built-ins win, then the prefix, then the server name", () => {
    expect(tool("echo").server).toBe("tests");
    expect(tool("remote__echo").server).toBe("web");
    // The filesystem server's read_file and write_file clash with built-ins and it has no prefix; its other tools keep their names.
    expect(tool("files__read_file").remoteName).toBe("read_file");
    expect(tool("files__write_file").remoteName).toBe("write_file");
    expect(() => new ToolPool([...manager.tools()])).not.toThrow();
  });

  it("passes the server's JSON Schema through unchanged and maps annotations to flags", () => {
    const echo = tool("echo");
    expect(echo.origin).toBe("mcp");
    expect(echo.runtime).toBe("local_subprocess");
    expect(tool("remote__echo").runtime).toBe("hosted");
    expect(echo.inputJsonSchema).toMatchObject({
      type: "object",
      properties: { text: { type: "string", description: "What to echo." }, times: { type: "integer", minimum: 1, maximum: 5 } },
      required: ["text"],
    });
    expect(new ToolPool([echo]).schemas()[0]?.inputSchema).toBe(echo.inputJsonSchema);
    expect([echo.isReadOnly(), echo.isDestructive(), echo.isConcurrencySafe()]).toEqual([true, false, true]);
    const write = tool("write_note");
    expect([write.isReadOnly(), write.isDestructive(), write.isConcurrencySafe()]).toEqual([false, true, false]);
    expect(tool("files__read_file").isReadOnly()).toBe(true);
  });

  it("says in words why a server cannot be reached", async () => {
    const broken = new McpConnectionManager({ secrets, reservedNames: () => [], timeouts: { connectMs: 3_000 } });
    await broken.configure([
      stdioServer({ id: "a", name: "missing", command: "/no/such/mcp-server", args: [] }),
      stdioServer({ id: "b", name: "nosecret", env: { KEY: "${NOT_STORED}" } }),
      { id: "c", name: "down", transport: "http", enabled: true, toolPrefix: null, maxCallSeconds: null, url: "http://127.0.0.1:9/mcp", headers: {} },
      { id: "d", name: "badtoken", transport: "http", enabled: true, toolPrefix: null, maxCallSeconds: null, url: http.url, headers: { Authorization: "Bearer wrong" } },
      stdioServer({ id: "e", name: "off", enabled: false }),
    ]);
    const errors = Object.fromEntries(broken.status().map((each) => [each.name, [each.state, each.error]]));
    expect(errors.missing).toEqual(["failed", expect.stringMatching(/The command "\/no\/such\/mcp-server" was not found/)]);
    expect(errors.nosecret).toEqual(["failed", expect.stringMatching(/\$\{NOT_STORED\}, which is not set. Store it in Settings → Secrets/)]);
    expect(errors.down).toEqual(["failed", expect.stringMatching(/127\.0\.0\.1:9/)]);
    expect(errors.badtoken).toEqual(["failed", expect.stringMatching(/401/)]);
    expect(errors.off).toEqual(["disabled", null]);
    expect(broken.tools()).toEqual([]);
    await broken.close();
  });
});

describe("calls", () => {
  it("returns text, images and errors as ToolResults, over stdio and HTTP", async () => {
    for (const prefix of ["", "remote__"]) {
      expect((await tool(`${prefix}echo`).run({ text: "hi", times: 2 }, context())).toJSON()).toMatchObject({ content: "hi hi", isError: false });
      expect((await tool(`${prefix}fail`).run({}, context())).toJSON()).toMatchObject({ content: "the disk is full", isError: true });
      const picture = await tool(`${prefix}picture`).run({}, context());
      expect(picture.images).toEqual([{ mediaType: "image/png", data: expect.any(String) }]);
    }
  });

  it("validates arguments against the server's schema before calling", async () => {
    const result = await tool("echo").run({ times: 9 }, context());
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/Invalid arguments for `echo`/);
    expect(result.content).toMatch(/text/);
  });

  it("expands ${NAME} secrets in the environment and passes nothing else of the studio's", async () => {
    const result = await tool("environment").run({}, context());
    const environment = JSON.parse(result.content) as Record<string, string>;
    // Expanded for the server, masked in what comes back to a model.
    expect(environment.NOTES_DIR).toBe("***");
    expect(Object.keys(environment).filter((name) => !["PATH", "HOME", "LANG", "NOTES_DIR"].includes(name))).toEqual([]);
    await tool("write_note").run({ file: "a.txt", text: "hello" }, context());
    expect(readFileSync(path.join(folder, "a.txt"), "utf8")).toBe("hello");
  });

  it("fails a slow call after the timeout without hanging, and the server still answers after", async () => {
    const started = Date.now();
    const result = await tool("slow").run({ ms: 10_000 }, context());
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/`slow` on the MCP server tests did not answer or report progress within 1\.5 s/);
    expect((await tool("echo").run({ text: "still here" }, context())).content).toBe("still here");
  });

  it("waits past the timeout while the tool keeps reporting progress", async () => {
    // 4 steps of 600 ms: longer in all than the 1.5 s timeout, never 1.5 s without a word.
    const result = await tool("working").run({ steps: 4, everyMs: 600 }, context());
    expect(result.isError).toBe(false);
    expect(result.content).toBe("done after 4 steps");
  });

  it("abandons a call that reports progress past the server's longest call", async () => {
    const limited = new McpConnectionManager({ secrets, reservedNames: () => [], timeouts: { callMs: 1_500 } });
    try {
      await limited.configure([stdioServer({ id: "limited", name: "limited", maxCallSeconds: 1 })]);
      const working = limited.tools().find((each) => each.remoteName === "working")!;
      const result = await working.run({ steps: 50, everyMs: 300 }, context());
      expect(result.isError).toBe(true);
      expect(result.content).toMatch(/`working` on the MCP server limited was still working after 1 s, the longest a call of this server may take/);
    } finally {
      await limited.close();
    }
  }, 60_000);

  it("reports malformed data as an error in words", async () => {
    for (const name of ["bad", "remote__bad"]) {
      const result = await tool(name).run({}, context());
      expect(result.isError).toBe(true);
      expect(result.content).toMatch(/returned data that is not a valid MCP tool result/);
    }
  });

  it("reports a crash, then starts the stdio server again on the next use", async () => {
    const crash = await tool("crash").run({}, context());
    expect(crash.isError).toBe(true);
    expect(crash.content).toMatch(/the server went away during the call \(it printed: test server: crashing on purpose\)/);
    expect(manager.status().find((each) => each.name === "tests")).toMatchObject({ state: "failed", error: expect.stringMatching(/exited/) });
    // The tools stay listed, so workflows still resolve them while the server is down.
    expect(manager.tools().some((each) => each.name === "echo")).toBe(true);
    expect((await tool("echo").run({ text: "back" }, context())).content).toBe("back");
    expect(manager.status().find((each) => each.name === "tests")?.state).toBe("connected");
  });

  it("calls the published filesystem server", async () => {
    writeFileSync(path.join(folder, "hello.txt"), "from the published server");
    const read = await tool("read_text_file").run({ path: path.join(folder, "hello.txt") }, context());
    expect(read.toJSON()).toMatchObject({ isError: false, content: "from the published server" });
    const outside = await tool("read_text_file").run({ path: "/etc/hostname" }, context());
    expect(outside.isError).toBe(true);
  });
});

describe("stable tool names", () => {
  it("lets the earliest-added server keep its plain names when a later one offers the same tools", async () => {
    const stable = new McpConnectionManager({ secrets, reservedNames: () => [] });
    const first = stdioServer({ id: "first", name: "zeta", createdAt: new Date("2026-01-01T00:00:00Z") });
    const later = stdioServer({ id: "later", name: "alpha", createdAt: new Date("2026-02-01T00:00:00Z") });
    try {
      await stable.configure([first]);
      const before = stable.tools().filter((each) => each.server === "zeta").map((each) => each.name);
      expect(before).toContain("echo");
      // Listed in name order, as the store lists them: "alpha" first, yet added later.
      await stable.configure([later, first]);
      expect(stable.tools().filter((each) => each.server === "zeta").map((each) => each.name)).toEqual(before);
      expect(stable.tools().find((each) => each.name === "alpha__echo")?.server).toBe("alpha");
      expect(stable.tools().find((each) => each.name === "echo")?.server).toBe("zeta");
    } finally {
      await stable.close();
    }
  }, 60_000);

  it("keeps a name given here when a reload read the store before that name was written", async () => {
    // rememberNames writes in the background: here it never lands, as when a reload reads first.
    const remembered: string[] = [];
    // "echo" is taken (as by a built-in): the first server takes the prefixed name, the second falls back to its own.
    const stable = new McpConnectionManager({ secrets, reservedNames: () => ["echo"], rememberNames: (id) => remembered.push(id) });
    const holder = stdioServer({ id: "holder", name: "one", toolPrefix: "shared", createdAt: new Date("2026-01-01T00:00:00Z") });
    const other = stdioServer({ id: "other", name: "two", toolPrefix: "shared", createdAt: new Date("2026-02-01T00:00:00Z") });
    try {
      await stable.configure([holder, other]);
      expect(stable.tools().find((each) => each.remoteName === "echo" && each.server === "two")?.name).toBe("two__echo");
      expect(remembered).toContain("other");
      // "one" is removed; the store (as read) holds no names for "two" yet.
      await stable.configure([{ ...other, toolNames: {} }]);
      expect(stable.tools().find((each) => each.remoteName === "echo")?.name).toBe("two__echo");
    } finally {
      await stable.close();
    }
  }, 60_000);
});

describe("the permission gate", () => {
  function gated(policy: "gated" | "open" | "denied"): { ctx: ToolContext; io: RecordingIOHandler } {
    const io = new RecordingIOHandler();
    const ctx = createToolContext({ io, permissions: { guardrails: { ...createScriptContext().permissions.guardrails, mcpPolicy: policy } } });
    return { ctx, io };
  }

  it("lets read-only calls pass and asks for others when gated", async () => {
    const { ctx, io } = gated("gated");
    expect((await tool("echo").run({ text: "x" }, ctx)).isError).toBe(false);
    const refused = await tool("write_note").run({ file: "b.txt", text: "y" }, ctx);
    expect(io.requests).toMatchObject([{ kind: "mcp", server: "tests", tool: "write_note", argumentsText: '{"file":"b.txt","text":"y"}' }]);
    expect(refused.content).toMatch(/The person denied calling write_note/);
  });

  it("refuses every MCP call, read-only ones included, when denied", async () => {
    const { ctx } = gated("denied");
    expect((await tool("echo").run({ text: "x" }, ctx)).content).toMatch(/MCP tools are denied/);
  });

  it("refuses a tool that requires task-based execution before asking anyone, and lists it as unavailable", async () => {
    const { ctx, io } = gated("gated");
    const refused = await tool("research").run({ topic: "x" }, ctx);
    expect(refused.isError).toBe(true);
    expect(refused.content).toMatch(/runs only as an MCP task .*cannot be called/);
    expect(io.requests).toEqual([]);
    const listed = manager.status().find((each) => each.name === "tests")?.tools.find((each) => each.remoteName === "research");
    expect(listed?.unavailable).toMatch(/taskSupport: "required"/);
    expect(tool("echo").unavailable).toBeNull();
  });

  it("allows without asking when open", async () => {
    const { ctx, io } = gated("open");
    expect((await tool("write_note").run({ file: "c.txt", text: "z" }, ctx)).isError).toBe(false);
    expect(io.requests).toEqual([]);
  });
});
