import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readSseBlocks } from "@/lib/format/sse-block";
import { startScriptedOpenAIServer, type ScriptedOpenAIServer } from "../support/scripted-openai-server";
import type { Json } from "./api-client";
import { credentialHeaders } from "./credential";
import { removeWorkFolders, workFolder } from "./fixtures";
import { invitePerson } from "./people-fixtures";
import { setupStudioServer } from "./studio-server";

/**
 * The Architect over HTTP with the scripted OpenAI-compatible model: a goal streams back a checked draft that, once
 * its settings are filled in, saves and runs; a draft naming a tool that does not exist is sent back and repaired;
 * Stop mid-stream ends it with nothing saved; bad requests are refused naming the field, before any model call.
 */

const server = setupStudioServer();
let model: ScriptedOpenAIServer;

beforeAll(async () => {
  model = await startScriptedOpenAIServer();
});

afterAll(async () => {
  await model?.close();
  removeWorkFolders();
});

/** Inputs → list the folder → output: the draft the scripted model answers. */
function listingDraft(tool = "list_dir") {
  return JSON.stringify({
    name: "Folder listing",
    description: "Lists a folder.",
    mode: "default",
    plan: [{ step: "List the folder", reason: "The goal asks what is in it.", capability: "file.list", nodeIds: ["list"] }],
    nodes: [
      { id: "in", kind: "input", fields: [] },
      { id: "list", kind: "tool", tool, operation: null, arguments: { path: "." } },
      { id: "out", kind: "output", value: "{{ nodes.list.output }}" },
    ],
    edges: [
      { from: "in", to: "list" },
      { from: "list", to: "out" },
    ],
    declined: [],
  });
}

const modelChoice = () => ({ provider: "openai_compatible", model: "scripted-architect", baseUrl: model.baseUrl });

/** POSTs a draft request and reads its events until the stream ends (or `stopAfter` says to stop reading). */
async function draft(body: unknown, stopAfter?: (event: Json) => boolean): Promise<{ status: number; events: Json[]; error?: Json }> {
  const stop = new AbortController();
  const response = await fetch(`${server.url}/api/architect/drafts`, {
    method: "POST",
    headers: { ...credentialHeaders(server.client().credential), "content-type": "application/json" },
    body: JSON.stringify(body),
    signal: stop.signal,
  });
  if (response.status !== 200) return { status: response.status, events: [], error: await response.json() };
  expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
  const events: Json[] = [];
  try {
    for await (const block of readSseBlocks(response.body!)) {
      const event = JSON.parse(block.data);
      expect(event.type).toBe(block.event);
      events.push(event);
      if (stopAfter?.(event)) {
        stop.abort();
        return { status: 200, events };
      }
    }
  } catch (error) {
    if (!stop.signal.aborted) throw error;
  }
  return { status: 200, events };
}

describe("the Architect over HTTP", () => {
  it("streams a checked draft from a goal; with its folder chosen it saves and runs", async () => {
    const api = server.client();
    await api.expect(201, "POST", "/api/secrets", { name: "ARCHITECT_SHOP_DB", value: "sqlite:///tmp/architect-shop.db" });
    model.script({ text: listingDraft() });
    const { events } = await draft({ goal: "Tell me what is in the reports folder.", model: modelChoice() });
    expect(events.map((event) => event.type)).toEqual(expect.arrayContaining(["round", "partial", "checked", "done"]));
    const done = events.at(-1);
    expect(done).toMatchObject({ type: "done", rounds: 1 });
    expect(done.problems.filter((problem: Json) => problem.for === "model")).toEqual([]);
    expect(done.problems).toContainEqual(expect.objectContaining({ nodeId: "list", path: "settings.root", for: "person" }));

    // What the model was asked: the answer's schema as the response format, the catalog and the secret's name, never its value.
    const asked = model.requests.at(-1)!;
    expect(asked.body.response_format).toMatchObject({ type: "json_schema" });
    expect(asked.rawBody).toContain("list_dir");
    expect(asked.rawBody).toContain("${ARCHITECT_SHOP_DB}");
    expect(asked.rawBody).not.toContain("architect-shop.db");

    // Accepted, its setting filled in by the person: it saves and runs.
    const root = workFolder("studio-architect-");
    const definition = { ...done.definition, nodes: done.definition.nodes.map((node: Json) => (node.id === "list" ? { ...node, settings: { root } } : node)) };
    const workflow = await api.createWorkflow(definition);
    const run = await api.waitForRun((await api.startRun(workflow.id)).id);
    expect(run.status, run.error).toBe("succeeded");
  });

  it("sends a made-up tool back with its path, and streams the repaired draft", async () => {
    model.script({ text: listingDraft("send_email") }, { text: listingDraft() });
    const before = model.requests.length;
    const { events } = await draft({ goal: "List the folder and mail it to me.", model: modelChoice() });
    const checked = events.filter((event) => event.type === "checked");
    expect(checked[0].problems).toContainEqual(expect.objectContaining({ path: "nodes[1].tool", for: "model" }));
    expect(events.at(-1)).toMatchObject({ type: "done", rounds: 2 });
    const repair = model.requests[before + 1]!.body.messages as { role: string; content: string }[];
    expect(repair.at(-1)!.content).toMatch(/nodes\[1\]\.tool: Invalid discriminator value/);
  });

  it("stops when the person stops it: the model's call is cut off and nothing is saved", async () => {
    const api = server.client();
    const workflowsBefore = (await api.expect(200, "GET", "/api/workflows")).page.total;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    model.script({ text: listingDraft(), holdAfterText: held });
    const { events } = await draft({ goal: "List the folder.", model: modelChoice() }, (event) => event.type === "partial");
    expect(events.at(-1).type).toBe("partial");
    release();
    expect((await api.expect(200, "GET", "/api/workflows")).page.total).toBe(workflowsBefore);
    // The studio goes on drafting for the next person.
    model.script({ text: listingDraft() });
    expect((await draft({ goal: "List the folder.", model: modelChoice() })).events.at(-1).type).toBe("done");
  });

  it("refuses a bad request naming the field, before any model call", async () => {
    const before = model.requests.length;
    const cases: [unknown, string][] = [
      [{ goal: "x".repeat(20_000), model: modelChoice() }, "goal"],
      [{ goal: "", model: modelChoice() }, "goal"],
      [{ goal: "List it.", model: { ...modelChoice(), apiKey: "sk-proj-abcdefghijklmnopqrstuvwxyz0123" } }, "model.apiKey"],
      [{ goal: "List it.", model: { ...modelChoice(), apiKey: "${NO_SUCH_SECRET}" } }, "model.apiKey"],
      [{ goal: "List it.", model: { ...modelChoice(), provider: "skynet" } }, "model.provider"],
      [{ goal: "List it.", model: modelChoice(), current: { nodes: "all of them" } }, "current.nodes"],
    ];
    for (const [body, field] of cases) {
      const { status, error } = await draft(body);
      expect(status, JSON.stringify(error)).toBe(422);
      expect(error.issues.map((issue: Json) => issue.path)).toContain(field);
    }
    expect(model.requests.length).toBe(before);
  });

  it("says plainly when the model cannot be reached", async () => {
    const { events } = await draft({ goal: "List the folder.", model: { ...modelChoice(), baseUrl: "http://127.0.0.1:9/v1" } });
    expect(events.at(-1)).toMatchObject({ type: "failed", error: expect.stringMatching(/^The model could not be asked: /) });
  });
});

/** The official SDK's client on the studio's MCP endpoint, with a personal access token. */
async function mcpClient(token: string): Promise<Client> {
  const client = new Client({ name: "architect-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  return client;
}

describe("the Architect through MCP", () => {
  it("drafts, checks and saves a workflow for a token that may build, under its person, never publishing it", async () => {
    const api = server.client();
    const edda = await invitePerson(api, "edda-architect", "editor", "Edda");
    const { token } = await edda.client.expect(201, "POST", "/api/me/tokens", { name: "building agent", scopes: ["workflow:read", "workflow:edit"], expiresInDays: 30 });
    const client = await mcpClient(token);
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(["draft_workflow", "validate_workflow", "create_workflow"]));

      model.script({ text: listingDraft() });
      const drafted = (await client.callTool({ name: "draft_workflow", arguments: { goal: "List the reports folder.", model: modelChoice() } })) as Json;
      expect(drafted.isError).toBeFalsy();
      const { definition, problems } = drafted.structuredContent;
      expect(problems).toContainEqual(expect.objectContaining({ nodeId: "list", path: "settings.root", for: "person" }));

      // Checked as the editor checks it: the root folder is missing until a person chooses it.
      const checked = (await client.callTool({ name: "validate_workflow", arguments: { definition } })) as Json;
      expect(checked.structuredContent.valid).toBe(false);
      const root = workFolder("studio-architect-mcp-");
      const complete = { ...definition, nodes: definition.nodes.map((node: Json) => (node.id === "list" ? { ...node, settings: { root } } : node)) };
      expect(((await client.callTool({ name: "validate_workflow", arguments: { definition: complete } })) as Json).structuredContent).toEqual({ valid: true, problems: [] });

      const saved = (await client.callTool({ name: "create_workflow", arguments: { definition: complete } })) as Json;
      // Hers, and not published: nothing runs until a person runs or publishes it.
      const database = server.openDatabase();
      try {
        expect(await database.workflow.findUnique({ where: { id: saved.structuredContent.workflowId }, select: { ownerId: true, publishedVersion: true } })).toEqual({
          ownerId: edda.id,
          publishedVersion: null,
        });
      } finally {
        await database.$disconnect();
      }

      // What a token could not confirm in a browser is refused: a workflow that runs everything unasked.
      const bypass = (await client.callTool({ name: "create_workflow", arguments: { definition: { ...complete, name: "Unasked", mode: "bypass" } } })) as Json;
      expect(bypass.isError).toBe(true);
      // Bad arguments are named.
      const bad = (await client.callTool({ name: "draft_workflow", arguments: { goal: "x", model: { provider: "skynet", model: "m" } } })) as Json;
      expect(bad).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/model\.provider/) }] });
    } finally {
      await client.close();
    }
  });

  it("offers the building tools only to a token that may build", async () => {
    const api = server.client();
    const vera = await invitePerson(api, "vera-architect", "editor", "Vera");
    const { token } = await vera.client.expect(201, "POST", "/api/me/tokens", { name: "runner", scopes: ["workflow:read", "workflow:run"], expiresInDays: 30 });
    const client = await mcpClient(token);
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain("create_workflow");
      const refused = (await client.callTool({ name: "create_workflow", arguments: { definition: {} } })) as Json;
      expect(refused).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/workflow:edit/) }] });
    } finally {
      await client.close();
    }
  });
});
