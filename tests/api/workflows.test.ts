import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, type Json } from "./api-client";
import { chain, removeWorkFolders, workFolder, writeFileWorkflow } from "./fixtures";
import { REPO_ROOT, setupStudioServer } from "./studio-server";

const server = setupStudioServer();
let api: ApiClient;

beforeAll(() => {
  api = server.client();
});

afterAll(() => {
  removeWorkFolders();
});

/** input -> output, the output's text telling versions apart. */
function echoWorkflow(text: string) {
  return {
    name: "Echo",
    description: "Says what it was given.",
    nodes: [
      { id: "in", kind: "input", fields: [{ name: "who", required: false, default: "world" }] },
      { id: "out", kind: "output", value: `${text} {{ inputs.who }}` },
    ],
    edges: chain("in", "out"),
  };
}

describe("workflows: create, list, get, save, versions", () => {
  it("creates version 1, lists and gets it with defaults applied", async () => {
    const created = await api.createWorkflow(echoWorkflow("hello"));
    expect(created).toMatchObject({ id: expect.any(String), name: "Echo", latestVersion: 1 });
    expect(created.definition).toMatchObject({ formatVersion: 1, mode: "default", onError: "stop" });
    expect(created.definition.nodes[0].position).toEqual({ x: 0, y: 0 });

    const { workflows } = await api.expect(200, "GET", "/api/workflows");
    expect(workflows.map((workflow: Json) => workflow.id)).toContain(created.id);
    const { workflow } = await api.expect(200, "GET", `/api/workflows/${created.id}`);
    expect(workflow.definition).toEqual(created.definition);
  });

  it("lays out a workflow given without positions, created or imported (the README's example file), so no card hides another", async () => {
    const created = await api.createWorkflow(echoWorkflow("placed"));
    expect(created.definition.nodes.map((node: Json) => [node.id, node.position])).toEqual([
      ["in", { x: 0, y: 0 }],
      ["out", { x: 320, y: 0 }],
    ]);
    const file = JSON.parse(readFileSync(path.join(REPO_ROOT, "examples/error-edge.workflow.json"), "utf8")) as Json;
    expect(file.nodes.every((node: Json) => node.position === undefined)).toBe(true);
    const { workflow } = await api.expect(201, "POST", "/api/workflows/import", file);
    const places = workflow.definition.nodes.map((node: Json) => `${node.position.x},${node.position.y}`);
    expect(new Set(places).size).toBe(file.nodes.length);
  });

  it("adds a version on every save; a run pins the version it ran", async () => {
    const { id } = await api.createWorkflow(echoWorkflow("first"));
    const saved = (await api.expect(200, "PUT", `/api/workflows/${id}`, echoWorkflow("second"))).workflow;
    expect(saved.latestVersion).toBe(2);

    const { versions } = await api.expect(200, "GET", `/api/workflows/${id}/versions`);
    expect(versions.map((version: Json) => version.version).sort()).toEqual([1, 2]);
    const first = (await api.expect(200, "GET", `/api/workflows/${id}/versions/1`)).version;
    expect(first.definition.nodes[1].value).toBe("first {{ inputs.who }}");
    expect((await api.get(`/api/workflows/${id}/versions/3`)).status).toBe(404);
    expect((await api.get(`/api/workflows/${id}/versions/0`)).status).toBe(404);

    const newest = await api.startRun(id, { who: "Ada" });
    expect(newest.version).toBe(2);
    const older = (await api.expect(201, "POST", `/api/workflows/${id}/runs`, { inputs: { who: "Ada" }, version: 1 })).run;
    expect(older.version).toBe(1);

    await api.expect(200, "PUT", `/api/workflows/${id}`, echoWorkflow("third"));
    const finishedNewest = await api.waitForRun(newest.id);
    const finishedOlder = await api.waitForRun(older.id);
    expect(finishedNewest).toMatchObject({ status: "succeeded", version: 2, output: "second Ada" });
    expect(finishedNewest.definition.nodes[1].value).toBe("second {{ inputs.who }}");
    expect(finishedOlder).toMatchObject({ status: "succeeded", version: 1, output: "first Ada" });
  });

  it("refuses a save based on a stale version with 409 and keeps the versions", async () => {
    const { id } = await api.createWorkflow(echoWorkflow("one"));
    await api.expect(200, "PUT", `/api/workflows/${id}?expectedVersion=1`, echoWorkflow("two"));
    const stale = await api.put(`/api/workflows/${id}?expectedVersion=1`, echoWorkflow("lost update"));
    expect(stale.status).toBe(409);
    expect(stale.body.error).toMatch(/version/i);
    const { versions } = await api.expect(200, "GET", `/api/workflows/${id}/versions`);
    expect(versions).toHaveLength(2);
    const { workflow } = await api.expect(200, "GET", `/api/workflows/${id}`);
    expect(workflow.definition.nodes[1].value).toBe("two {{ inputs.who }}");
  });

  it("duplicates a workflow as a new one with the same definition", async () => {
    const original = await api.createWorkflow(echoWorkflow("copied"));
    const copy = (await api.expect(201, "POST", `/api/workflows/${original.id}/duplicate`, { name: "Echo again" })).workflow;
    expect(copy.id).not.toBe(original.id);
    expect(copy).toMatchObject({ name: "Echo again", latestVersion: 1 });
    expect(copy.definition.nodes).toEqual(original.definition.nodes);
    expect(copy.definition.edges).toEqual(original.definition.edges);
    // The body is optional, but its type is not: a bodiless cross-site POST must not make copies.
    const bodiless = await api.post(`/api/workflows/${original.id}/duplicate`);
    expect(bodiless.status).toBe(415);
    const unnamed = await api.post(`/api/workflows/${original.id}/duplicate`, undefined, { headers: { "content-type": "application/json" } });
    expect(unnamed.status).toBe(201);
    expect(unnamed.body.workflow.name).toContain("Echo");
    expect(unnamed.body.workflow.id).not.toBe(copy.id);
  });

  it("deletes a workflow: 204, then 404 everywhere", async () => {
    const { id } = await api.createWorkflow(echoWorkflow("doomed"));
    expect((await api.delete(`/api/workflows/${id}`)).status).toBe(204);
    expect((await api.get(`/api/workflows/${id}`)).status).toBe(404);
    expect((await api.get(`/api/workflows/${id}/versions`)).status).toBe(404);
    expect((await api.put(`/api/workflows/${id}`, echoWorkflow("again"))).status).toBe(404);
    expect((await api.post(`/api/workflows/${id}/runs`, { inputs: {} })).status).toBe(404);
    expect((await api.delete(`/api/workflows/${id}`)).status).toBe(404);
    const { workflows } = await api.expect(200, "GET", "/api/workflows");
    expect(workflows.map((workflow: Json) => workflow.id)).not.toContain(id);
  });
});

describe("secrets written out", () => {
  it("are refused at save, import and every later save, naming the field; nothing holding them is stored", async () => {
    const literal = (dsn: string) => ({
      name: "Literal secret",
      nodes: [
        { id: "in", kind: "input", fields: [] },
        { id: "db", kind: "tool", tool: "sql", operation: "list_tables", arguments: { dsn } },
      ],
      edges: chain("in", "db"),
    });
    const before = await api.counts();
    for (const [method, url] of [["POST", "/api/workflows"], ["POST", "/api/workflows/import"]] as const) {
      const refused = await api.request(method, url, literal("postgresql://app:hunter2@127.0.0.1:5432/app"));
      expect(refused.status, `${method} ${url}`).toBe(422);
      expect(refused.body.issues).toEqual([expect.objectContaining({ path: "nodes[1].arguments.dsn", message: expect.stringContaining("${NAME}") })]);
      expect(refused.text).not.toContain("hunter2");
    }
    const saved = await api.createWorkflow(literal("${SOME_DB}"));
    const save = await api.request("PUT", `/api/workflows/${saved.id}`, literal("postgresql://app:hunter2@127.0.0.1:5432/app"));
    expect(save.status).toBe(422);
    const stored = (await api.expect(200, "GET", `/api/workflows/${saved.id}`)).workflow;
    expect(stored.latestVersion).toBe(1);
    expect(JSON.stringify(stored)).not.toContain("hunter2");
    expect((await api.counts()).workflows).toBe(before.workflows! + 1);
  });
});

describe("a save refused", () => {
  it("names every problem it refuses for at once: a node without its tool and an edge to a missing node", async () => {
    const before = await api.counts();
    const broken = {
      name: "Two problems",
      nodes: [
        { id: "in", kind: "input", fields: [] },
        { id: "toolless", kind: "tool" },
      ],
      edges: [...chain("in", "toolless"), { id: "to-ghost", source: "toolless", target: "ghost" }],
    };
    const refused = await api.request("POST", "/api/workflows", broken);
    expect(refused.status).toBe(422);
    const paths = refused.body.issues.map((issue: Json) => issue.path);
    expect(paths).toEqual(expect.arrayContaining(["nodes[1].tool", "edges[1].target"]));
    expect(refused.body.issues.find((issue: Json) => issue.path === "edges[1].target").message).toContain('"ghost"');
    expect((await api.counts()).workflows).toBe(before.workflows);
  });
});

describe("POST /api/workflows/validate", () => {
  it("returns every problem at once, each with its node and field", async () => {
    const root = workFolder();
    const definition = {
      name: "Broken in many ways",
      nodes: [
        { id: "in", kind: "input", fields: [{ name: "topic" }] },
        { id: "unknown", kind: "tool", tool: "no_such_tool" },
        { id: "unsettled", kind: "tool", tool: "write_file", settings: {}, arguments: { path: "a.txt", content: "x" } },
        { id: "extra", kind: "tool", tool: "read_file", settings: { root }, arguments: { path: "a.txt", colour: "blue" } },
        { id: "early", kind: "output", value: "{{ nodes.late.output }} {{ inputs.missing }}" },
        { id: "late", kind: "tool", tool: "read_file", settings: { root }, arguments: { path: "b.txt" } },
        { id: "database", kind: "tool", tool: "sql", operation: "list_tables", arguments: { dsn: "${NOT_STORED_DB}" } },
        { id: "loopA", kind: "output", value: "a" },
        { id: "loopB", kind: "output", value: "b" },
      ],
      edges: [
        ...chain("in", "unknown"),
        ...chain("in", "unsettled"),
        ...chain("in", "extra"),
        ...chain("in", "early", "late"),
        ...chain("in", "database"),
        { id: "ab", source: "loopA", target: "loopB" },
        { id: "ba", source: "loopB", target: "loopA" },
      ],
    };
    const result = await api.expect(200, "POST", "/api/workflows/validate", definition);
    expect(result.valid).toBe(false);
    const where = result.problems.map((problem: Json) => `${problem.nodeId}:${problem.field}`);
    expect(where).toEqual(
      expect.arrayContaining([
        "unknown:tool",
        "unsettled:settings.root",
        "extra:arguments.colour",
        "early:value",
        "database:arguments.dsn",
        "loopA:null",
        "loopB:null",
      ]),
    );
    for (const problem of result.problems) {
      expect(problem.nodeId, JSON.stringify(problem)).toEqual(expect.any(String));
      expect(problem.message, JSON.stringify(problem)).toMatch(/\S/);
    }
    const early = result.problems.filter((problem: Json) => problem.nodeId === "early").map((problem: Json) => problem.message);
    expect(early.join(" ")).toMatch(/late.*not upstream/);
    expect(early.join(" ")).toMatch(/no input "missing"/);
    expect(result.requirements).toContainEqual(
      expect.objectContaining({ nodeId: "database", kind: "secret", name: "NOT_STORED_DB", satisfied: false, problem: "is not set" }),
    );
  });

  it("reports schema errors with the node they sit in, and passes a good definition", async () => {
    const bad = await api.expect(200, "POST", "/api/workflows/validate", {
      name: "Bad node",
      nodes: [{ id: "in", kind: "input", fields: [{ name: "1bad" }] }],
    });
    expect(bad.valid).toBe(false);
    expect(bad.problems).toContainEqual(expect.objectContaining({ nodeId: "in", field: expect.stringContaining("fields") }));

    const good = await api.expect(200, "POST", "/api/workflows/validate", writeFileWorkflow(workFolder()));
    expect(good).toMatchObject({ valid: true, problems: [] });
  });
});

describe("import and export", () => {
  it("round-trips a workflow exactly: export, import as a new workflow, export again", async () => {
    const root = workFolder();
    const original = await api.createWorkflow({
      ...writeFileWorkflow(root, { name: "Round trip" }),
      guardrails: { writeScope: ["notes/**"], shellPolicy: "readonly" },
      onError: "continue",
    });
    const exported = (await api.expect(200, "GET", `/api/workflows/${original.id}`)).workflow.definition;
    const file = JSON.parse(JSON.stringify(exported));
    const imported = await api.createWorkflow(file);
    expect(imported.id).not.toBe(original.id);
    const reexported = (await api.expect(200, "GET", `/api/workflows/${imported.id}`)).workflow.definition;
    expect(reexported).toEqual(exported);
    expect(JSON.stringify(reexported)).toBe(JSON.stringify(exported));
  });
});
