import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, type ApiResponse, type Json } from "./api-client";
import { chain, removeWorkFolders, workFolder, writeFileWorkflow } from "./fixtures";
import { rawRequest } from "./raw-http";
import { REPO_ROOT, setupStudioServer } from "./studio-server";

/**
 * Every route fed malformed, oversized and hostile input: a 4xx with a
 * reason, never a 5xx, and nothing half-written. Routes are discovered from
 * app/api, so a new route is fuzzed without anyone remembering to add it.
 */

const server = setupStudioServer();
let api: ApiClient;
/** Real records, so hostile bodies reach the parsing stage of each route. */
let workflowId: string;
let runId: string;
let approvalId: string;
const SECRET_NAME = "HOSTILE_TEST_DB";

interface ApiRoute {
  /** e.g. `/api/workflows/[id]/versions/[version]`. */
  template: string;
  methods: string[];
  readsBody: boolean;
}

function discoverRoutes(folder = path.join(REPO_ROOT, "app/api")): ApiRoute[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry): ApiRoute[] => {
    const file = path.join(folder, entry.name);
    if (entry.isDirectory()) return discoverRoutes(file);
    if (entry.name !== "route.ts") return [];
    const source = readFileSync(file, "utf8");
    const methods = [...source.matchAll(/export const (GET|POST|PUT|PATCH|DELETE)\b/g)].map((match) => match[1]!);
    const template = `/${path.relative(path.join(REPO_ROOT, "app"), folder).split(path.sep).join("/")}`;
    return [{ template, methods, readsBody: source.includes("readBody(") }];
  });
}

const routes = discoverRoutes();

/** The route with its dynamic segments filled: real ids where we have them, else `value`. */
function fill(template: string, value?: string): string {
  return template.replace(/\[([^\]]+)\]/g, (_, name: string) => {
    if (value !== undefined) return value;
    if (name === "version") return "1";
    if (name === "name") return SECRET_NAME;
    if (template.startsWith("/api/workflows/")) return workflowId;
    if (template.startsWith("/api/runs/")) return runId;
    if (template.startsWith("/api/approvals/")) return approvalId;
    return "x";
  });
}

beforeAll(async () => {
  api = server.client();
  workflowId = (await api.createWorkflow(writeFileWorkflow(workFolder()))).id;
  runId = (await api.startRun(workflowId, { text: "waiting" })).id;
  approvalId = (await api.waitForApproval(runId)).id;
  await api.expect(201, "POST", "/api/secrets", { name: SECRET_NAME, value: "sqlite:///tmp/none.db", tool: "sql" });
});

afterAll(() => {
  removeWorkFolders();
});

/** Everything that could have been written, to compare before and after. */
async function snapshot(): Promise<Json> {
  const run = await api.getRun(runId);
  const secret = (await api.expect(200, "GET", `/api/secrets/${SECRET_NAME}`)).secret;
  return { counts: await api.counts(), run: { status: run.status, lastSeq: run.lastSeq }, secret };
}

/**
 * Sends the requests and checks that none was a 5xx and that none wrote
 * anything. Each must be a 4xx with a reason, unless `mayAnswerOk` says a
 * 2xx is harmless for it (a report, or an update naming no known field).
 */
async function expectRefusedWithoutWrites(
  requests: (() => Promise<ApiResponse & { label: string }>)[],
  options: { expected?: (status: number, label: string) => void; mayAnswerOk?: (label: string) => boolean } = {},
) {
  const before = await snapshot();
  for (const send of requests) {
    const response = await send();
    const described = `${response.label}: ${response.status} ${response.text.slice(0, 300)}`;
    expect(response.status, described).toBeLessThan(500);
    if (!(response.status < 300 && options.mayAnswerOk?.(response.label))) {
      expect(response.status, described).toBeGreaterThanOrEqual(400);
      if (response.headers.get("content-type")?.includes("application/json")) expect(response.body.error, described).toMatch(/\S/);
    }
    options.expected?.(response.status, response.label);
  }
  expect(await snapshot()).toEqual(before);
  expect(server.logs()).not.toMatch(/unexpected error/);
}

const labelled = (label: string, response: Promise<ApiResponse>) => response.then((answer) => ({ ...answer, label }));

/** Sends `rawBody` as is, with `contentType` (none when null), labelled for failure messages. */
function sendRaw(label: string, method: string, url: string, rawBody: string, contentType: string | null = "application/json") {
  const headers: Record<string, string> = contentType ? { "content-type": contentType } : {};
  return labelled(`${method} ${url.slice(0, 120)} ${label}`, api.request(method, url, undefined, { rawBody, headers }));
}

/** The POST and PUT handlers that read a JSON body. */
function bodyRoutes(): { route: ApiRoute; method: string }[] {
  return routes.flatMap((route) =>
    route.readsBody ? route.methods.filter((method) => method === "POST" || method === "PUT").map((method) => ({ route, method })) : [],
  );
}

/** `[[[...]]]`, `depth` levels: valid JSON that overflows the stack of any recursive walk. */
function deepArray(depth: number): string {
  return `${"[".repeat(depth)}${"]".repeat(depth)}`;
}

/** Every field any route reads, each nested `depth` levels deep, so no route finds a usable body in it. */
function deepFields(depth: number): string {
  const deep = deepArray(depth);
  const fields = ["name", "nodes", "decision", "inputs", "value", "description", "tool", "password"];
  return `{${fields.map((field) => `"${field}":${deep}`).join(",")}}`;
}

describe("hostile input on every route", () => {
  it("discovers the API's routes", () => {
    const templates = routes.map((route) => route.template);
    expect(templates).toEqual(
      expect.arrayContaining(["/api/workflows", "/api/workflows/[id]", "/api/runs/[id]/events", "/api/approvals/[id]", "/api/secrets/[name]"]),
    );
    expect(bodyRoutes().length).toBeGreaterThanOrEqual(8);
  });

  it("answers malformed JSON with 400, a wrong content type with 415 and a 6 MB body with 413", async () => {
    const huge = JSON.stringify({ name: "x".repeat(6 * 1024 * 1024), nodes: [] });
    const requests = bodyRoutes().flatMap(({ route, method }) => {
      const url = fill(route.template);
      return [
        () => sendRaw("malformed", method, url, '{"name": "x",'),
        () => sendRaw("text/plain", method, url, '{"decision":"once"}', "text/plain"),
        () => sendRaw("form", method, url, "decision=once", "application/x-www-form-urlencoded"),
        () => sendRaw("no type", method, url, '{"decision":"once"}', null),
        () => sendRaw("6 MB", method, url, huge),
      ].map((send, index) => async () => {
        const response = await send();
        const wanted = [400, 415, 415, 415, 413][index];
        expect(response.status, `${response.label}: ${response.text.slice(0, 300)}`).toBe(wanted);
        return response;
      });
    });
    await expectRefusedWithoutWrites(requests);
  });

  it("refuses a 6 MB body sent without a length (chunked) with 413", async () => {
    const chunk = new TextEncoder().encode(" ".repeat(1024 * 1024));
    const response = await fetch(`${server.url}/api/workflows`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${server.token}` },
      body: new ReadableStream({
        start(controller) {
          for (let index = 0; index < 6; index += 1) controller.enqueue(chunk);
          controller.close();
        },
      }),
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
  });

  it("answers 7.5 and 20 MB bodies sent to start a run (served past Next) with 413 every time, never a reset connection", async () => {
    const url = `${server.url}/api/workflows/${workflowId}/runs`;
    const before = await snapshot();
    for (const megabytes of [7.5, 20]) {
      const body = JSON.stringify({ inputs: { text: "x".repeat(megabytes * 1024 * 1024) } });
      for (let attempt = 1; attempt <= 5; attempt += 1) {
        const signedIn = await rawRequest(url, { method: "POST", body, headers: { "content-type": "application/json", authorization: `Bearer ${server.token}` } });
        expect(signedIn.status, `${megabytes} MB, try ${attempt}: ${signedIn.text.slice(0, 200)}`).toBe(413);
        // Without a credential the body is never read, only dropped: the 401 must arrive all the same.
        const stranger = await rawRequest(url, { method: "POST", body, headers: { "content-type": "application/json" } });
        expect(stranger.status, `${megabytes} MB without a credential, try ${attempt}`).toBe(401);
      }
    }
    expect(await snapshot()).toEqual(before);
  });

  // Eight bodies, some of several MB, to every route that takes one: about 15 s on a quiet 2-core machine, over 30 s on a busy one.
  it("answers bodies of the wrong shape (null, arrays, strings, deep nesting, huge arrays) with a 4xx", { timeout: 120_000 }, async () => {
    const bodies: [string, string][] = [
      ["null", "null"],
      ["array", "[1,2,3]"],
      ["string", '"hello"'],
      ["number", "42"],
      ["deep array", deepArray(100_000)],
      ["deep fields", deepFields(50_000)],
      ["huge array", JSON.stringify(Array(500_000).fill({ name: "x", decision: "once" }))],
      [
        "huge fields",
        JSON.stringify({
          name: Array(100_000).fill("x"),
          nodes: Array.from({ length: 6000 }, (_, index) => ({ id: `n${index}`, kind: "output" })),
          decision: Array(100_000).fill("once"),
          inputs: { text: Array(100_000).fill("x") },
          value: Array(100_000).fill("x"),
          password: Array(100_000).fill("x"),
        }),
      ],
    ];
    const requests = bodyRoutes().flatMap(({ route, method }) => bodies.map(([name, rawBody]) => () => sendRaw(name, method, fill(route.template), rawBody)));
    await expectRefusedWithoutWrites(requests, {
      // Validation reports problems with 200 and writes nothing; a secret update whose fields are all unknown changes nothing.
      mayAnswerOk: (label) => label.startsWith("POST /api/workflows/validate") || label.startsWith(`PUT /api/secrets/${SECRET_NAME}`),
    });
    for (const [name, rawBody] of bodies) {
      const response = await sendRaw(name, "POST", "/api/workflows/validate", rawBody);
      if (response.status === 200) expect(response.body.valid, name).toBe(false);
    }
  });

  it("refuses a workflow whose values nest too deep to store, rather than failing on it", async () => {
    // Written as text: JSON.stringify itself overflows on values this deep.
    const definition = (depth: number) =>
      `{"name":"Deep arguments","nodes":[{"id":"call","kind":"tool","tool":"http","arguments":{"url":"http://127.0.0.1:9/","method":"POST","json":${deepArray(depth)}}}]}`;
    const send = (method: string, url: string, rawBody: string) => sendRaw("deep", method, url, rawBody);
    const requests = [
      () => send("POST", "/api/workflows", definition(100_000)),
      () => send("PUT", `/api/workflows/${workflowId}`, definition(100_000)),
      () => send("POST", "/api/workflows/validate", definition(100_000)),
      () => send("POST", `/api/workflows/${workflowId}/runs`, `{"inputs":{"text":"x","file":${deepArray(100_000)}}}`),
    ];
    await expectRefusedWithoutWrites(requests, { mayAnswerOk: () => false });
    // Depth a person might really use is fine.
    const ordinary = await sendRaw("ordinary", "POST", "/api/workflows/validate", definition(20));
    expect(ordinary.status).toBe(200);
  });

  it("names the field of every wrong type with 422", async () => {
    const cases: [string, string, unknown, string][] = [
      ["POST", "/api/workflows", { name: 123, nodes: [] }, "name"],
      ["POST", "/api/workflows", { name: "x", nodes: "none" }, "nodes"],
      ["POST", "/api/workflows", { name: "x", nodes: [{ id: "1bad", kind: "input" }] }, "nodes[0].id"],
      ["POST", "/api/workflows", { name: "x", nodes: [{ id: "a", kind: "teleport" }] }, "nodes[0].kind"],
      ["POST", "/api/workflows", { name: "x", mode: "yolo", nodes: [] }, "mode"],
      ["POST", "/api/workflows", { name: "x", nodes: [], edges: [{ id: "e", source: "a", target: "b" }] }, "edges[0].source"],
      ["POST", "/api/workflows", { name: "x", nodes: Array.from({ length: 5001 }, (_, index) => ({ id: `n${index}`, kind: "output" })) }, "nodes"],
      ["PUT", `/api/workflows/{workflow}`, { name: ["x"], nodes: [] }, "name"],
      ["POST", `/api/workflows/{workflow}/runs`, { inputs: [1, 2] }, "inputs"],
      ["POST", `/api/workflows/{workflow}/runs`, { inputs: { text: "x" }, version: "one" }, "version"],
      ["POST", `/api/workflows/{workflow}/runs`, { inputs: { text: "x", sneaky: "y" } }, "inputs"],
      ["POST", `/api/workflows/{workflow}/duplicate`, { name: "" }, "name"],
      ["POST", `/api/approvals/{approval}`, { decision: 7 }, "decision"],
      ["POST", `/api/approvals/{approval}`, { decision: "once", feedback: { text: "x" } }, "feedback"],
      ["POST", "/api/secrets", { name: "lower-case", value: "x" }, "name"],
      ["POST", "/api/secrets", { name: "FINE_NAME", value: 5 }, "value"],
      ["POST", "/api/secrets", { name: "FINE_NAME", value: "x", tool: 5 }, "tool"],
      ["PUT", `/api/secrets/${SECRET_NAME}`, { value: "" }, "value"],
      ["PUT", `/api/secrets/${SECRET_NAME}`, { description: "x".repeat(600) }, "description"],
    ];
    const requests = cases.map(([method, template, body, field]) => async () => {
      const url = template.replace("{workflow}", workflowId).replace("{approval}", approvalId);
      const response = await labelled(`${method} ${url} ${JSON.stringify(body).slice(0, 80)}`, api.request(method, url, body));
      expect(response.status, response.label).toBe(422);
      const paths = (response.body.issues as Json[]).map((issue) => issue.path);
      expect(paths.some((each: string) => each === field || each.startsWith(`${field}.`) || each.startsWith(`${field}[`) || each.endsWith(`.${field}`)), `${response.label}: ${paths.join(", ")}`).toBe(true);
      return response;
    });
    await expectRefusedWithoutWrites(requests);
  });

  it("refuses text holding a lone UTF-16 surrogate with 422 naming the field, instead of failing to store it", async () => {
    const lone = "x\ud800y";
    const input = { id: "in", kind: "input", fields: [] };
    const cases: [string, string, unknown, string][] = [
      ["POST", "/api/workflows", { name: lone, nodes: [input], edges: [] }, "name"],
      ["PUT", "/api/workflows/{workflow}", { name: lone, nodes: [input], edges: [] }, "name"],
      ["POST", "/api/workflows/{workflow}/duplicate", { name: lone }, "name"],
      ["POST", "/api/workflows", { name: "x", nodes: [{ ...input, fields: [{ name: "a", description: "\udc00" }] }] }, "nodes[0].fields[0].description"],
      ["POST", "/api/secrets", { name: "LONE_SURROGATE", value: "v", description: lone }, "description"],
      ["PUT", `/api/secrets/${SECRET_NAME}`, { description: lone }, "description"],
      ["POST", "/api/approvals/{approval}", { decision: "deny", feedback: lone }, "feedback"],
    ];
    const requests = cases.map(([method, template, body, field]) => async () => {
      const url = template.replace("{workflow}", workflowId).replace("{approval}", approvalId);
      const response = await labelled(`${method} ${url} (lone surrogate in ${field})`, api.request(method, url, body));
      expect(response.status, response.label).toBe(422);
      expect((response.body.issues as Json[]).map((issue) => issue.path), response.label).toContain(field);
      return response;
    });
    await expectRefusedWithoutWrites(requests);
  });

  it("answers 404 for path ids with ../, %00, odd encodings or great length, on every dynamic route", async () => {
    // Not "%2E%2E": the URL standard makes it a dot segment, so it names another path (and is not an id at all).
    const ids = ["..%2F..%2Fetc%2Fpasswd", "..%5C..%5Cwindows", "%00", "a%00b", "x".repeat(5_000), "%E2%80%AE", "'%20OR%201=1--", "%F0%9F%92%A9", "%252e%252e%252f"];
    const dynamic = routes.filter((route) => route.template.includes("["));
    const requests = dynamic.flatMap((route) =>
      route.methods.flatMap((method) =>
        ids.map((id) => async () => {
          const url = fill(route.template, id);
          // A well-formed body, so only the id can be what is wrong.
          const body = method === "GET" || method === "DELETE" ? undefined : { decision: "once", inputs: {}, name: "x", nodes: [], value: "v" };
          const response = await labelled(`${method} ${url.slice(0, 120)}`, api.request(method, url, body));
          expect(response.status, `${response.label}: ${response.text.slice(0, 200)}`).toBe(404);
          return response;
        }),
      ),
    );
    expect(requests.length).toBeGreaterThan(50);
    await expectRefusedWithoutWrites(requests);
  });

  it("answers 400 for a path that is not valid percent-encoding, and 405 for methods a route lacks", async () => {
    const requests = [
      () => labelled("GET bad encoding", api.get("/api/workflows/%E0%A4%A")),
      ...routes
        .filter((route) => !route.methods.includes("PATCH"))
        .map((route) => () => labelled(`PATCH ${route.template}`, api.request("PATCH", fill(route.template), { name: "x" }))),
    ];
    await expectRefusedWithoutWrites(requests, { expected: (status, label) => expect(status, label).toBe(label.startsWith("PATCH") ? 405 : 400) });
  });

  it("answers unknown query values with 422 naming the parameter", async () => {
    const cases: [string, string, string][] = [
      ["GET", "/api/runs?status=exploded", "status"],
      ["GET", "/api/runs?limit=0", "limit"],
      ["GET", "/api/runs?limit=lots", "limit"],
      ["GET", "/api/runs?limit=100000", "limit"],
      ["GET", `/api/runs?cursor=${"x".repeat(3000)}`, "cursor"],
      ["GET", "/api/workflows?direction=up", "direction"],
      ["GET", "/api/approvals?status=maybe", "status"],
      ["GET", "/api/approvals?limit=-3", "limit"],
      ["PUT", "/api/workflows/{workflow}?expectedVersion=latest", "expectedVersion"],
      ["PUT", "/api/workflows/{workflow}?expectedVersion=0", "expectedVersion"],
    ];
    const requests = cases.map(([method, template, field]) => async () => {
      const url = template.replace("{workflow}", workflowId);
      const body = method === "PUT" ? writeFileWorkflow(workFolder(), { name: "must not be saved" }) : undefined;
      const response = await labelled(`${method} ${url.slice(0, 100)}`, api.request(method, url, body));
      expect(response.status, response.label).toBe(422);
      expect(response.body.issues.map((issue: Json) => issue.path), response.label).toContain(field);
      return response;
    });
    await expectRefusedWithoutWrites(requests);
  });

  // No wall-clock bound here: on a loaded 2-core machine it is noise (speed is measured in bench/).
  it("validates a 5,000-node workflow correctly and keeps answering afterwards", async () => {
    const nodes = [{ id: "in", kind: "input", fields: [] }, ...Array.from({ length: 4_999 }, (_, index) => ({ id: `o${index}`, kind: "output", value: "x" }))];
    const response = await api.post("/api/workflows/validate", { name: "Long", nodes, edges: chain(...nodes.map((node) => node.id)) });
    expect(response.status, response.text.slice(0, 300)).toBe(200);
    expect(response.body.valid).toBe(true);
    expect((await api.get("/api/tools")).status).toBe(200);
  });
});
