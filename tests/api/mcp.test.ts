import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withCommandConfirmed } from "@/lib/validations/mcp-server";
import { startHttpTestServer, testServerCommand, type HttpTestServer } from "@/tests/support/test-mcp-servers";
import { ApiClient, type Json } from "./api-client";
import { chain } from "./fixtures";
import { invitePerson } from "./people-fixtures";
import { setupStudioServer } from "./studio-server";

// MCP end to end against the real studio: servers over stdio and HTTP, their
// tools in the catalog and in runs under each mcp_policy, and the studio's
// own /api/mcp called by the official SDK client.

const server = setupStudioServer();
let api: ApiClient;
let remote: HttpTestServer;
const notes = mkdtempSync(path.join(os.tmpdir(), "studio-mcp-notes-"));

beforeAll(async () => {
  remote = await startHttpTestServer({ token: "remote-token" });
  api = server.client();
  await api.expect(201, "POST", "/api/secrets", { name: "NOTES_FOLDER", value: notes });
  await api.expect(201, "POST", "/api/secrets", { name: "REMOTE_TOKEN", value: "remote-token" });
});

afterAll(async () => {
  await remote?.stop();
  rmSync(notes, { recursive: true, force: true });
});

// Sent as the servers page sends it after a person read the command and confirmed it.
const stdioServer = () => withCommandConfirmed({ name: "tests", transport: "stdio", ...testServerCommand(), env: { NOTES_DIR: "${NOTES_FOLDER}" } });

function noteWorkflow(name: string, guardrails: Record<string, unknown>, tool = "write_note") {
  return {
    name,
    guardrails,
    nodes: [
      { id: "in", kind: "input", fields: [{ name: "text" }] },
      { id: "call", kind: "tool", tool, arguments: tool === "echo" ? { text: "{{ inputs.text }}" } : { file: `${name}.txt`, text: "{{ inputs.text }}" } },
      { id: "out", kind: "output", value: "{{ nodes.call.output }}" },
    ],
    edges: chain("in", "call", "out"),
  };
}

describe("the servers API", () => {
  let stdioId: string;

  it("refuses a stdio server without a command and an http one without a URL (422 naming the field)", async () => {
    const noCommand = await api.post("/api/mcp-servers", { name: "x", transport: "stdio" });
    expect(noCommand.status).toBe(422);
    expect(noCommand.body.issues.map((issue: Json) => issue.path)).toContain("command");
    const noUrl = await api.post("/api/mcp-servers", { name: "x", transport: "http", url: "not a url" });
    expect(noUrl.status).toBe(422);
    expect(noUrl.body.issues.map((issue: Json) => issue.path)).toContain("url");
    const badName = await api.post("/api/mcp-servers", { ...stdioServer(), name: "Has Spaces" });
    expect(badName.status).toBe(422);
    expect((await api.expect(200, "GET", "/api/mcp-servers")).servers).toEqual([]);
  });

  it("adds a stdio server, connects and lists its tools with their flags", async () => {
    const { server: created } = await api.expect(201, "POST", "/api/mcp-servers", stdioServer());
    stdioId = created.id;
    expect(created).toMatchObject({ name: "tests", state: "connected", error: null, env: { NOTES_DIR: "${NOTES_FOLDER}" } });
    const byName = Object.fromEntries(created.tools.map((tool: Json) => [tool.name, tool.flags]));
    expect(byName.echo).toEqual({ readOnly: true, destructive: false, concurrencySafe: true });
    expect(byName.write_note).toEqual({ readOnly: false, destructive: true, concurrencySafe: false });
    expect((await api.post("/api/mcp-servers", stdioServer())).status).toBe(409);
  });

  it("adds an HTTP server with a secret header; its tools are hosted and renamed on a clash", async () => {
    const { server: created } = await api.expect(201, "POST", "/api/mcp-servers", {
      name: "web",
      transport: "http",
      url: remote.url,
      toolPrefix: "remote",
      headers: { Authorization: "Bearer ${REMOTE_TOKEN}" },
    });
    expect(created).toMatchObject({ state: "connected", error: null });
    expect(created.tools.map((tool: Json) => tool.name)).toContain("remote__echo");
  });

  it("stores a server's longest call, empty meaning the default, and refuses one that is not a positive whole number of seconds", async () => {
    const { server: current } = await api.expect(200, "GET", `/api/mcp-servers/${stdioId}`);
    expect(current.maxCallSeconds).toBeNull();
    const { id: _id, createdAt: _c, updatedAt: _u, state: _s, error: _e, tools: _t, commandConfirmation: _k, ...config } = current;
    const zero = await api.put(`/api/mcp-servers/${stdioId}`, { ...config, maxCallSeconds: 0 });
    expect(zero.status).toBe(422);
    expect(zero.body.issues.map((issue: Json) => issue.path)).toContain("maxCallSeconds");
    const saved = await api.expect(200, "PUT", `/api/mcp-servers/${stdioId}`, { ...config, maxCallSeconds: 1_800 });
    expect(saved.server).toMatchObject({ maxCallSeconds: 1_800, state: "connected" });
    expect((await api.expect(200, "GET", `/api/mcp-servers/${stdioId}`)).server.maxCallSeconds).toBe(1_800);
  });

  it("shows a failing server's error in words", async () => {
    const { server: broken } = await api.expect(201, "POST", "/api/mcp-servers", withCommandConfirmed({ name: "broken", transport: "stdio", command: "/no/such/program" }));
    expect(broken).toMatchObject({ state: "failed", error: expect.stringMatching(/was not found/) });
    const tested = await api.expect(200, "POST", `/api/mcp-servers/${broken.id}/test`);
    expect(tested.server.state).toBe("failed");
    await api.expect(204, "DELETE", `/api/mcp-servers/${broken.id}`);
    expect((await api.get(`/api/mcp-servers/${broken.id}`)).status).toBe(404);
  });

  it("puts MCP tools in the catalog under their server, with the JSON Schema unchanged", async () => {
    const { tools } = await api.expect(200, "GET", "/api/tools");
    const echo = tools.find((tool: Json) => tool.name === "echo");
    expect(echo).toMatchObject({ origin: "mcp", runtime: "local_subprocess", domain: "mcp:tests", server: "tests", icon: "mcp" });
    expect(echo.inputSchema.properties.times).toMatchObject({ type: "integer", minimum: 1, maximum: 5 });
    expect(tools.find((tool: Json) => tool.name === "remote__echo")).toMatchObject({ runtime: "hosted", server: "web" });
    expect(tools.find((tool: Json) => tool.name === "read_file")).toMatchObject({ origin: "core", server: null });
  });

  it("disables and enables a server: its tools leave the catalog and come back", async () => {
    const { server: current } = await api.expect(200, "GET", `/api/mcp-servers/${stdioId}`);
    const { id: _id, createdAt: _c, updatedAt: _u, state: _s, error: _e, tools: _t, ...config } = current;
    const disabled = await api.expect(200, "PUT", `/api/mcp-servers/${stdioId}`, { ...config, enabled: false });
    expect(disabled.server).toMatchObject({ state: "disabled", tools: [] });
    const fromTests = async () => (await api.expect(200, "GET", "/api/tools")).tools.filter((tool: Json) => tool.server === "tests").map((tool: Json) => tool.name);
    expect(await fromTests()).toEqual([]);
    const enabled = await api.expect(200, "PUT", `/api/mcp-servers/${stdioId}`, { ...config, enabled: true });
    expect(enabled.server.state).toBe("connected");
    expect(await fromTests()).toContain("echo");
  });

  it("renders the servers page", async () => {
    const page = await api.get("/settings/mcp");
    expect(page.status).toBe(200);
    expect(page.text).toContain("MCP servers");
    expect(page.text).toContain("/api/mcp");
  });
});

describe("MCP tools in runs, under mcp_policy", () => {
  it("gated: a read-only call passes; a destructive one waits in the inbox with its arguments, then runs", async () => {
    const echo = await api.createWorkflow(noteWorkflow("gated-echo", { mcpPolicy: "gated" }, "echo"));
    const echoRun = await api.startRun(echo.id, { text: "hello" });
    expect(await api.waitForRun(echoRun.id)).toMatchObject({ status: "succeeded", output: "hello" });

    const write = await api.createWorkflow(noteWorkflow("gated", { mcpPolicy: "gated" }));
    const run = await api.startRun(write.id, { text: "approved text" });
    const approval = await api.waitForApproval(run.id);
    expect(approval).toMatchObject({ kind: "mcp", tool: "write_note" });
    expect(approval.preview).toContain("approved text");
    await api.expect(200, "POST", `/api/approvals/${approval.id}`, { decision: "approve" });
    expect(await api.waitForRun(run.id)).toMatchObject({ status: "succeeded" });
    expect(readFileSync(path.join(notes, "gated.txt"), "utf8")).toBe("approved text");
  });

  it("open: runs without asking", async () => {
    const { id } = await api.createWorkflow(noteWorkflow("open", { mcpPolicy: "open" }));
    const run = await api.startRun(id, { text: "open text" });
    expect(await api.waitForRun(run.id)).toMatchObject({ status: "succeeded", pendingApprovals: 0 });
    expect(readFileSync(path.join(notes, "open.txt"), "utf8")).toBe("open text");
  });

  it("denied: the call is refused, read-only or not, and the run fails saying why", async () => {
    const { id } = await api.createWorkflow(noteWorkflow("denied", { mcpPolicy: "denied" }, "echo"));
    const run = await api.startRun(id, { text: "x" });
    const finished = await api.waitForRun(run.id);
    expect(finished.status).toBe("failed");
    expect(JSON.stringify(finished.steps.find((step: Json) => step.nodeId === "call"))).toMatch(/MCP tools are denied/);
  });

  it("flags a hosted tool whose arguments point at localhost", async () => {
    const definition = noteWorkflow("hosted", { mcpPolicy: "open" }, "echo");
    definition.nodes[1] = { id: "call", kind: "tool", tool: "remote__echo", arguments: { text: "http://localhost:3000/admin" } };
    const { problems } = await api.expect(200, "POST", "/api/workflows/validate", definition);
    expect(problems).toContainEqual(expect.objectContaining({ nodeId: "call", field: "arguments.text", message: expect.stringMatching(/cannot reach localhost/) }));
  });
});

describe("tool names that stay put", () => {
  it("keeps the first server's names when a second offers the same tools, and a saved workflow still runs against the first", async () => {
    const saved = await api.createWorkflow(noteWorkflow("stays-with-tests", { mcpPolicy: "open" }));
    expect(saved.definition.nodes.find((node: Json) => node.id === "call")).toMatchObject({ tool: "write_note", mcpServer: "tests" });
    const elsewhere = mkdtempSync(path.join(os.tmpdir(), "studio-mcp-elsewhere-"));
    // Named to sort before "tests": the order servers were added decides, not their names.
    const { server: second } = await api.expect(
      201,
      "POST",
      "/api/mcp-servers",
      withCommandConfirmed({ name: "alpha", transport: "stdio", ...testServerCommand(), env: { NOTES_DIR: elsewhere } }),
    );
    try {
      expect(second.state).toBe("connected");
      expect(second.tools.map((tool: Json) => tool.name)).toContain("alpha__write_note");
      const { tools } = await api.expect(200, "GET", "/api/tools");
      expect(tools.find((tool: Json) => tool.name === "write_note")).toMatchObject({ server: "tests" });

      const run = await api.startRun(saved.id, { text: "still the first" });
      expect(await api.waitForRun(run.id)).toMatchObject({ status: "succeeded" });
      expect(readFileSync(path.join(notes, "stays-with-tests.txt"), "utf8")).toBe("still the first");

      const original = noteWorkflow("moved", { mcpPolicy: "open" });
      const moved = { ...original, nodes: original.nodes.map((node) => (node.id === "call" ? { ...node, mcpServer: "alpha" } : node)) };
      const { problems } = await api.expect(200, "POST", "/api/workflows/validate", moved);
      expect(problems).toContainEqual(expect.objectContaining({ nodeId: "call", field: "tool", message: expect.stringMatching(/MCP server "alpha".*now belongs to the MCP server "tests"/) }));
    } finally {
      await api.expect(204, "DELETE", `/api/mcp-servers/${second.id}`);
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it("keeps a tool's name once given: removing the server that held a name renames nobody else's tools", async () => {
    const elsewhere = mkdtempSync(path.join(os.tmpdir(), "studio-mcp-names-"));
    const add = async (name: string) =>
      (await api.expect(201, "POST", "/api/mcp-servers", withCommandConfirmed({ name, transport: "stdio", toolPrefix: "shared", ...testServerCommand(), env: { NOTES_DIR: elsewhere } }))).server;
    // "tests" holds write_note; the first server here takes the prefixed name, the second falls back to its own.
    const one = await add("one");
    const two = await add("two");
    try {
      const nameOf = (server: Json) => server.tools.find((tool: Json) => tool.remoteName === "write_note")?.name;
      expect([nameOf(one), nameOf(two)]).toEqual(["shared__write_note", "two__write_note"]);
      await api.expect(204, "DELETE", `/api/mcp-servers/${one.id}`);
      // shared__write_note is free now; two's tool keeps the name workflows saved it with.
      const { servers } = await api.expect(200, "GET", "/api/mcp-servers");
      expect(nameOf(servers.find((server: Json) => server.id === two.id))).toBe("two__write_note");
      const { tools } = await api.expect(200, "GET", "/api/tools");
      expect(tools.map((tool: Json) => tool.name)).not.toContain("shared__write_note");
    } finally {
      await api.request("DELETE", `/api/mcp-servers/${one.id}`);
      await api.expect(204, "DELETE", `/api/mcp-servers/${two.id}`);
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});

describe("workflows served at /api/mcp", () => {
  async function connect(token: string): Promise<Client> {
    const client = new Client({ name: "studio-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    return client;
  }

  it("refuses a missing or wrong token with 401", async () => {
    const missing = await api.post("/api/mcp", { jsonrpc: "2.0", id: 1, method: "tools/list" }, { headers: { accept: "application/json, text/event-stream" } });
    expect(missing.status).toBe(401);
    await expect(connect("wrong-token")).rejects.toMatchObject({ code: 401 });
  });

  it("lists workflows as tools and calls one, answering with the output node's value", async () => {
    const { token } = await api.expect(200, "GET", "/api/mcp-token");
    await api.createWorkflow({ ...noteWorkflow("Served Echo!", { mcpPolicy: "open" }, "echo"), description: "Echoes the text." });
    const client = await connect(token);
    try {
      const { tools } = await client.listTools();
      const served = tools.find((tool) => tool.name === "served_echo");
      expect(served).toMatchObject({ description: "Echoes the text.", inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } });
      const result = await client.callTool({ name: "served_echo", arguments: { text: "over mcp" } });
      expect(result).toMatchObject({ content: [{ type: "text", text: "over mcp" }] });
      expect(result.isError).toBeFalsy();
      await expect(client.callTool({ name: "served_echo", arguments: { wrong: 1 } })).rejects.toThrow(/inputs are not valid/);
    } finally {
      await client.close();
    }
  });

  it("reports progress while a run waits for a person, then returns its output saying who decided and when", async () => {
    const { token } = await api.expect(200, "GET", "/api/mcp-token");
    await api.createWorkflow(noteWorkflow("served-gated", { mcpPolicy: "gated" }));
    const client = await connect(token);
    try {
      const messages: string[] = [];
      let sawWaiting: () => void = () => undefined;
      const waiting = new Promise<void>((resolve) => (sawWaiting = resolve));
      const call = client.callTool({ name: "served_gated", arguments: { text: "through the inbox" } }, undefined, {
        // As a standard client: a 60 s timeout that progress resets.
        timeout: 60_000,
        resetTimeoutOnProgress: true,
        onprogress: ({ message }) => {
          messages.push(message ?? "");
          if (message?.includes("waiting for a person")) sawWaiting();
        },
      });
      await waiting;
      const approval = (await api.pendingApprovals()).find((each: Json) => each.tool === "write_note");
      expect(approval).toBeDefined();
      await api.expect(200, "POST", `/api/approvals/${approval.id}`, { decision: "approve" });
      const result = await call;
      expect(result.isError).toBeFalsy();
      const text = JSON.stringify(result.content);
      expect(text).toContain("wrote");
      expect(text).toMatch(/approved write_note: by \S.* at \d{4}-\d\d-\d\dT/);
      expect(messages[0]).toMatch(/started/);
      expect(readFileSync(path.join(notes, "served-gated.txt"), "utf8")).toBe("through the inbox");
    } finally {
      await client.close();
    }
  });

  it("serves a personal access token with workflow:run the workflows its person may run, and the runs are theirs", async () => {
    const edda = await invitePerson(api, "edda-mcp", "editor", "Edda");
    const shared = (await api.createWorkflow(noteWorkflow("Shared with Edda", { mcpPolicy: "open" }, "echo"))).id as string;
    await api.createWorkflow(noteWorkflow("Not for Edda", { mcpPolicy: "open" }, "echo"));
    await api.expect(200, "PUT", `/api/workflows/${shared}/shares`, { shares: [{ subject: { personId: edda.id }, role: "editor" }] });
    const { token } = await edda.client.expect(201, "POST", "/api/me/tokens", { name: "laptop agent", scopes: ["workflow:read", "workflow:run"], expiresInDays: 30 });
    const client = await connect(token as string);
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toContain("shared_with_edda");
      expect(names).not.toContain("not_for_edda");
      expect(names).not.toContain("served_echo");
      const result = await client.callTool({ name: "shared_with_edda", arguments: { text: "from Edda's agent" } });
      expect(result).toMatchObject({ content: [{ type: "text", text: "from Edda's agent" }] });
      await expect(client.callTool({ name: "not_for_edda", arguments: { text: "x" } })).rejects.toThrow(/No workflow is served as "not_for_edda"/);
    } finally {
      await client.close();
    }
    const [run] = (await api.expect(200, "GET", `/api/runs?workflowId=${shared}`)).runs;
    expect(run.trigger.kind).toBe("mcp");
    expect(run.startedBy).toEqual({ personId: edda.id, name: "Edda (token laptop agent)" });
    // A token that may only read is told what it lacks, not served.
    const { token: reader } = await edda.client.expect(201, "POST", "/api/me/tokens", { name: "reader", scopes: ["workflow:read"], expiresInDays: 30 });
    const refused = await new ApiClient(server.url, { token: reader as string }).post("/api/mcp", { jsonrpc: "2.0", id: 1, method: "tools/list" }, { headers: { accept: "application/json, text/event-stream" } });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatch(/workflow:run/);
  });

  it("regenerating the token locks out the old one", async () => {
    const { token: old } = await api.expect(200, "GET", "/api/mcp-token");
    const { token: fresh } = await api.expect(200, "POST", "/api/mcp-token");
    expect(fresh).not.toBe(old);
    await expect(connect(old)).rejects.toMatchObject({ code: 401 });
    const client = await connect(fresh);
    await client.close();
  });
});
