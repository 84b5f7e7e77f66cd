import { existsSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startScriptedOpenAIServer, type ScriptedOpenAIServer } from "../support/scripted-openai-server";
import { ApiClient } from "./api-client";
import { edge, removeWorkFolders, workFolder } from "./fixtures";
import { setupStudioServer } from "./studio-server";

const server = setupStudioServer();
let api: ApiClient;
let model: ScriptedOpenAIServer;

/** Values that must reach only the tools (the DSN) and the Authorization header (the key), never a body. */
const PLANTED_KEY = "sk-planted-agent-key-7f3a9c";
let plantedDsn: string;

beforeAll(async () => {
  model = await startScriptedOpenAIServer();
  api = server.client();
});

afterAll(async () => {
  await model?.close();
  removeWorkFolders();
});

function agentWorkflow(root: string) {
  return {
    name: "Agent writes a report",
    mode: "default",
    nodes: [
      { id: "in", kind: "input", fields: [{ name: "topic", default: "sales" }] },
      {
        id: "agent",
        kind: "agent",
        label: "Report writer",
        provider: "openai_compatible",
        model: "scripted-model",
        baseUrl: model.baseUrl,
        apiKey: "${AGENT_MODEL_KEY}",
        systemPrompt: "You write short reports.",
        task: "Write a report about {{ inputs.topic }} to report.txt.",
        maxTurns: 10,
      },
      { id: "db", kind: "tool", tool: "sql", operation: "list_tables", arguments: { dsn: "${AGENT_DB}" } },
      { id: "write", kind: "tool", tool: "write_file", settings: { root } },
      { id: "out", kind: "output", value: "{{ nodes.agent.output }}" },
    ],
    edges: [edge("in", "agent"), edge("db", "agent"), edge("write", "agent"), edge("agent", "out")],
  };
}

describe("agent nodes", () => {
  it("call tools through the gate and the inbox, and no secret reaches a request body", async () => {
    const root = workFolder();
    const secretFolder = path.join(workFolder("planted-secret-folder-"), "vault-9d2e");
    mkdirSync(secretFolder);
    const databaseFile = path.join(secretFolder, "sales.db");
    const database = new Database(databaseFile);
    database.exec("CREATE TABLE orders (id INTEGER PRIMARY KEY, total REAL)");
    database.close();
    plantedDsn = `sqlite://${databaseFile}`;
    await api.expect(201, "POST", "/api/secrets", { name: "AGENT_MODEL_KEY", value: PLANTED_KEY });
    await api.expect(201, "POST", "/api/secrets", { name: "AGENT_DB", value: plantedDsn, tool: "sql" });

    model.script(
      { text: "Let me look at the database.", toolCalls: [{ name: "sql", arguments: {} }] },
      { toolCalls: [{ name: "write_file", arguments: { path: "report.txt", content: "Tables: orders" } }] },
      { text: "The report is in report.txt." },
    );
    const { id } = await api.createWorkflow(agentWorkflow(root));
    const run = await api.startRun(id, { topic: "sales" });

    const approval = await api.waitForApproval(run.id);
    expect(approval).toMatchObject({ kind: "write", nodeId: "agent", tool: "write_file" });
    expect(existsSync(path.join(root, "report.txt"))).toBe(false);
    await api.expect(200, "POST", `/api/approvals/${approval.id}`, { decision: "once" });

    const finished = await api.waitForRun(run.id);
    expect(finished.status).toBe("succeeded");
    expect(finished.output).toBe("The report is in report.txt.");
    expect(readFileSync(path.join(root, "report.txt"), "utf8")).toBe("Tables: orders");

    // The model saw the tool result (the table name) and the tools without their bound settings.
    expect(model.requests).toHaveLength(3);
    const second = model.requests[1]!.body as { messages: { role: string; content: unknown }[]; tools: { function: { name: string; parameters: { properties: Record<string, unknown> } } }[] };
    expect(JSON.stringify(second.messages)).toContain("orders");
    const sqlTool = second.tools.find((each) => each.function.name === "sql")!;
    expect(Object.keys(sqlTool.function.parameters.properties)).not.toContain("dsn");
    expect(JSON.stringify(model.requests[0]!.body)).toContain("Write a report about sales to report.txt.");

    for (const request of model.requests) {
      expect(request.headers.authorization).toBe(`Bearer ${PLANTED_KEY}`);
      expect(request.rawBody).not.toContain(PLANTED_KEY);
      expect(request.rawBody).not.toContain(plantedDsn);
      expect(request.rawBody).not.toContain("vault-9d2e");
    }

    const events = await api.events(run.id);
    const types = events.map((event) => event.type);
    expect(types).toEqual(expect.arrayContaining(["node-text-delta", "node-tool-call-started", "node-tool-call-finished", "approval-requested"]));
    const calls = events.filter((event) => event.type === "node-tool-call-finished").map((event) => event.payload);
    expect(calls).toEqual([
      expect.objectContaining({ tool: "sql", isError: false, arguments: { operation: "list_tables", dsn: "${AGENT_DB}" } }),
      expect.objectContaining({ tool: "write_file", isError: false, approvals: [expect.objectContaining({ decision: "once" })] }),
    ]);
    expect(JSON.stringify(events)).not.toContain(plantedDsn);
    expect(JSON.stringify(events)).not.toContain(PLANTED_KEY);
    const attached = events.filter((event) => event.type === "node-skipped").map((event) => [event.nodeId, event.payload.reason]);
    expect(attached).toEqual(expect.arrayContaining([["db", "attached"], ["write", "attached"]]));
  }, 60_000);

  it("refuse a literal API key in validation", async () => {
    const definition = agentWorkflow(workFolder());
    (definition.nodes[1] as Record<string, unknown>).apiKey = "sk-literal";
    const result = await api.expect(200, "POST", "/api/workflows/validate", definition);
    expect(result.valid).toBe(false);
    expect(result.problems).toContainEqual(expect.objectContaining({ nodeId: "agent", field: "apiKey", message: expect.stringContaining("plain text") }));
  });
});
