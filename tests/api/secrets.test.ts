import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, type Json } from "./api-client";
import { BYPASS, chain, removeWorkFolders, shellNode, workFolder } from "./fixtures";
import { freePort, setupStudioServer } from "./studio-server";

/**
 * A planted secret value must never appear in anything the API returns,
 * streams or logs, nor unencrypted in the data folder.
 */

const PLANTED = "planted-secret-7f3a9c";

const server = setupStudioServer();
let api: ApiClient;
/** Every response body this file received, to search for the planted value at the end. */
const received: string[] = [];

beforeAll(async () => {
  api = server.client();
  const request = api.request.bind(api);
  api.request = async (...args) => {
    const response = await request(...args);
    received.push(response.text);
    return response;
  };
});

afterAll(() => {
  removeWorkFolders();
});

/** Every file under `folder`, recursively. */
function filesUnder(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const file = path.join(folder, name);
    return statSync(file).isDirectory() ? filesUnder(file) : [file];
  });
}

describe("secrets", () => {
  it("stores secrets write-only: never returned, with the tool's verdict on the value", async () => {
    const closedPort = await freePort();
    const created = await api.post("/api/secrets", {
      name: "SALES_DB",
      value: `postgresql://studio:${PLANTED}@127.0.0.1:${closedPort}/sales`,
      description: "The sales database",
      tool: "sql",
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      secret: { name: "SALES_DB", description: "The sales database", tool: "sql", workflows: null, createdAt: expect.any(String), updatedAt: expect.any(String) },
      problem: "",
    });

    const listed = await api.expect(200, "GET", "/api/secrets");
    expect(listed.secrets).toContainEqual(expect.objectContaining({ name: "SALES_DB", tool: "sql" }));
    const one = await api.expect(200, "GET", "/api/secrets/SALES_DB");
    expect(Object.keys(one.secret).sort()).toEqual(["createdAt", "description", "name", "tool", "updatedAt", "workflows"]);

    const unusable = await api.post("/api/secrets", { name: "BROKEN_DB", value: `mysql-ish ${PLANTED}`, tool: "sql" });
    expect(unusable.status).toBe(201);
    expect(unusable.body.problem).toMatch(/connection URL/);
    expect(unusable.body.problem).not.toContain(PLANTED);

    const duplicate = await api.post("/api/secrets", { name: "SALES_DB", value: "other" });
    expect(duplicate.status).toBe(409);
    const badName = await api.post("/api/secrets", { name: "sales-db", value: "x" });
    expect(badName.status).toBe(422);
    expect(badName.body.issues[0].path).toBe("name");
    expect((await api.get("/api/secrets/NOT_THERE")).status).toBe(404);

    const described = await api.put("/api/secrets/BROKEN_DB", { description: "still broken" });
    expect(described.status).toBe(200);
    expect(described.body.problem).toMatch(/connection URL/);
    expect((await api.delete("/api/secrets/BROKEN_DB")).status).toBe(204);
    expect((await api.get("/api/secrets/BROKEN_DB")).status).toBe(404);
  });

  it("uses a secret in a sql run without the value reaching events, steps, approvals, logs or the database file", async () => {
    const root = workFolder();
    const database = {
      id: "database",
      kind: "tool",
      label: "Check the sales database",
      tool: "sql",
      operation: "test_connection",
      arguments: { dsn: "${SALES_DB}" },
    };
    const validation = await api.expect(200, "POST", "/api/workflows/validate", {
      name: "Sales check",
      nodes: [database],
    });
    expect(validation.requirements).toEqual([expect.objectContaining({ nodeId: "database", name: "SALES_DB", satisfied: true, problem: "" })]);

    // A shell step names the secret too: only declared secret inputs are substituted, never free text.
    const { id } = await api.createWorkflow({
      name: "Sales check",
      ...BYPASS,
      onError: "continue",
      nodes: [{ id: "in", kind: "input", fields: [] }, database, shellNode("shell", root, "echo 'dsn is ${SALES_DB}'; env")],
      edges: [...chain("in", "database"), ...chain("in", "shell")],
    });
    const run = await api.startRun(id);
    const finished = await api.waitForRun(run.id);
    // The database step fails (nothing listens there); the workflow continues past failures, so the run goes on and succeeds.
    expect(finished.status).toBe("succeeded");
    const databaseStep = finished.steps.find((step: Json) => step.nodeId === "database");
    expect(databaseStep.status).toBe("failed");
    expect(databaseStep.error).toMatch(/connect|refused|reach/i);
    const shellStep = finished.steps.find((step: Json) => step.nodeId === "shell");
    expect(shellStep.status).toBe("succeeded");
    expect(shellStep.output.content).toContain("dsn is ${SALES_DB}");

    // Plan mode: the plan a person approves names the reference, not the value.
    const planned = await api.createWorkflow({ name: "Planned sales check", mode: "plan", nodes: [database] });
    const plannedRun = await api.startRun(planned.id);
    const plan = await api.waitForApproval(plannedRun.id);
    expect(plan.kind).toBe("plan");
    expect(plan.preview).toContain("${SALES_DB}");
    await api.expect(200, "POST", `/api/approvals/${plan.id}`, { decision: "deny", feedback: "not today" });
    await api.waitForRun(plannedRun.id);

    const everything = [
      JSON.stringify(await api.events(run.id)),
      JSON.stringify(await api.events(plannedRun.id)),
      JSON.stringify(await api.getRun(run.id)),
      JSON.stringify(await api.expect(200, "GET", "/api/approvals?limit=1000")),
      JSON.stringify(await api.expect(200, "GET", "/api/runs")),
      JSON.stringify(await api.expect(200, "GET", "/api/workflows")),
      JSON.stringify(await api.expect(200, "GET", "/api/tools")),
      ...received,
    ];
    for (const text of everything) expect(text).not.toContain(PLANTED);
    expect(server.logs()).not.toContain(PLANTED);
  });

  it("keeps a secret limited to some workflows from every other workflow's steps, and says so where it is used", async () => {
    const check = (name: string) => ({
      name,
      nodes: [
        { id: "in", kind: "input", fields: [] },
        { id: "database", kind: "tool", tool: "sql", operation: "test_connection", arguments: { dsn: "${BILLING_DB}" } },
      ],
      edges: chain("in", "database"),
    });
    const billing = await api.createWorkflow(check("Billing report"));
    const other = await api.createWorkflow(check("Someone else's report"));
    const value = `postgresql://billing:${PLANTED}@127.0.0.1:1/billing`;

    // A workflow id that names none: refused naming the item, nothing stored.
    const unknown = await api.post("/api/secrets", { name: "BILLING_DB", value, tool: "sql", workflows: [billing.id, "01NOSUCHWORKFLOW0000000000"] });
    expect(unknown.status).toBe(422);
    expect(unknown.body.issues.map((issue: Json) => issue.path)).toEqual(["workflows.1"]);
    expect((await api.get("/api/secrets/BILLING_DB")).status).toBe(404);

    const made = await api.expect(201, "POST", "/api/secrets", { name: "BILLING_DB", value, tool: "sql", workflows: [billing.id] });
    expect(made.secret.workflows).toEqual([billing.id]);
    // Another workflow's run is refused before it starts, naming the step's field and why; its check says the same.
    const refused = await api.post(`/api/workflows/${other.id}/runs`, { inputs: {} });
    expect(refused.status).toBe(422);
    expect(refused.text).toMatch(/BILLING_DB is limited to other workflows/);
    const validation = await api.expect(200, "POST", `/api/workflows/validate?workflowId=${other.id}`, check("Someone else's report"));
    expect(validation.requirements).toEqual([expect.objectContaining({ name: "BILLING_DB", satisfied: false, problem: expect.stringMatching(/^is limited to other workflows/) })]);
    // Its own workflow uses it: the step reaches for the database (nothing listens there), with no word of a limit.
    const run = await api.startRun(billing.id);
    const step = (await api.waitForRun(run.id)).steps.find((each: Json) => each.nodeId === "database");
    expect(step.status).toBe("failed");
    expect(step.error).toMatch(/connect|refused|reach/i);
    expect(step.error).not.toMatch(/limited/);

    // Let the other one use it too: it runs.
    const widened = await api.expect(200, "PUT", "/api/secrets/BILLING_DB", { workflows: [other.id, billing.id] });
    expect(widened.secret.workflows).toEqual([billing.id, other.id].sort());
    await api.startRun(other.id);
    // Back to every workflow.
    expect((await api.expect(200, "PUT", "/api/secrets/BILLING_DB", { workflows: null })).secret.workflows).toBeNull();
  });

  it("never stores the value unencrypted, in the database, its journal or anywhere in the data folder", async () => {
    // A restart checkpoints the journal and proves the key still opens what is stored.
    await server.kill("SIGKILL");
    for (const file of filesUnder(server.dataDir)) {
      expect(readFileSync(file).includes(PLANTED), file).toBe(false);
      expect(readFileSync(file).includes(Buffer.from(PLANTED, "utf16le")), file).toBe(false);
    }
    const stored = await server.databaseText();
    if (server.provider === "postgresql") expect(stored).toContain("SALES_DB");
    expect(stored).not.toContain(PLANTED);
    await server.restart();
    const validation = await api.expect(200, "POST", "/api/workflows/validate", {
      name: "After restart",
      nodes: [{ id: "database", kind: "tool", tool: "sql", operation: "test_connection", arguments: { dsn: "${SALES_DB}" } }],
    });
    expect(validation.requirements[0]).toMatchObject({ name: "SALES_DB", satisfied: true });
    for (const file of filesUnder(server.dataDir)) expect(readFileSync(file).includes(PLANTED), file).toBe(false);
    expect(server.logs()).not.toContain(PLANTED);
  });
});
