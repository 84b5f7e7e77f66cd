import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Role } from "@/lib/contracts/roles";
import type { StudioDatabase } from "@/lib/persistence";
import { OPEN_ROUTES, ROUTE_ACCESS, type RouteAccess, type RouteKey } from "@/lib/server/access/route-access";
import { ApiClient, waitFor, type Json } from "./api-client";
import { credentialHeaders } from "./credential";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { chain, edge, removeWorkFolders, shellNode, workFolder } from "./fixtures";
import { rawRequest } from "./raw-http";
import { connectEventStream } from "./sse-client";
import { invitePerson, PERSON_PASSWORD, refusedFor, revokedTokenOf, simpleWorkflow } from "./people-fixtures";
import { everyRoute } from "./routes";
import { setupStudioServer } from "./studio-server";

/**
 * Issue 29's two-person access matrix: every route of the table
 * (lib/server/access/route-access.ts, itself checked against app/ by
 * route-access.test.ts) asked by every kind of caller, about objects that
 * belong to someone else: an editor's workflow, shared with an editor, an
 * approver and a viewer at their own roles. Those who may are let through
 * (whatever the handler then says of the body: a 409 or 422 passed the door);
 * those who may not get exactly 401, 403 or 404, a 404 with the words of an
 * object that does not exist, and the database (everything but the security
 * log, sessions and tokens' last use) is the same afterwards, byte for byte.
 *
 * Size today: 79 routes × 8 identities = 632 requests (the test's name says the
 * count it ran, so it stays true as routes are added; each half prints how many
 * it asked). The open routes (signing in, invitations, /api/mcp with its own
 * token) are not in the table; the MCP endpoint's served tools are checked below.
 *
 * The second half asks with ids guessed from elsewhere: a child run of a
 * workflow shared with nobody, For each items, pins, versions, webhook test
 * captures, approvals and the live feed, limited secrets, MCP served tools,
 * and the pages: each is a 404 worded as for nothing there to whoever may not
 * read its workflow, and one workflow's path never opens another's object.
 */

const server = setupStudioServer();

/** Who asks. Roles are studio-wide; the workflows are shared with editor, approver and viewer at those roles. */
const IDENTITIES = ["owner", "admin", "editor", "approver", "viewer", "no share", "revoked token", "no credential"] as const;
type Identity = (typeof IDENTITIES)[number];

const ROLE_OF: Partial<Record<Identity, Role>> = { owner: "owner", admin: "admin", editor: "editor", approver: "approver", viewer: "viewer", "no share": "editor" };

/** Ids of what the routes act on, real ones, so a 404 is the door's and not a missing step or pin. */
interface Ids {
  workflow: string;
  run: string;
  approval: string;
  nodeId: string;
  version: string;
  mcpServer: string;
  secret: string;
  invitation: string;
  person: string;
  token: string;
  grant: string;
  listen: string;
  dataset: string;
  evaluation: string;
}

interface Case {
  /** The path with its ids (`[id]`, `[nodeId]`… of the key filled in) and any query. */
  path?: (ids: Ids) => string;
  body?: (ids: Ids, who: Identity) => unknown;
  /** Fresh ids for one allowed caller, for a request that uses its object up (a delete, a decision). */
  fresh?: (who: Identity) => Promise<Partial<Ids>>;
  /** A refusal beyond the table's: who the handler refuses with a 403 of its own. */
  handlerRefuses?: Identity[];
}

const NOSUCH = "01NOSUCHOBJECT000000000000";

let root: ApiClient;
let olga: ApiClient;
let clients: Record<Identity, ApiClient>;
let personIds: Partial<Record<Identity, string>>;
let ids: Ids;
let database: StudioDatabase;
let definitionW: Json;
let counter = 0;
const unique = (prefix: string) => `${prefix}${(counter += 1)}`;

/** The editor-owned workflow every case acts on: run inputs and a webhook → output. */
function workflowW(hook: string) {
  return {
    name: "Olga pipeline",
    nodes: [
      { id: "in", kind: "input", fields: [] },
      { id: "hook", kind: "webhook", hookId: hook, authentication: "header-token", secret: "${MATRIX_HOOK_TOKEN}", header: "X-Hook-Token", mapping: [] },
      { id: "out", kind: "output", value: "done" },
    ],
    edges: [edge("in", "out"), edge("hook", "out")],
  };
}

/** Olga's workflow `definition`, shared as W is: with the editor, the approver and the viewer at their roles. */
async function sharedWorkflow(definition: unknown): Promise<string> {
  const id = (await olga.expect(201, "POST", "/api/workflows", definition)).workflow.id as string;
  await olga.expect(200, "PUT", `/api/workflows/${id}/shares`, { shares: SHARES() });
  return id;
}

const SHARES = () => [
  { subject: { personId: personIds.editor! }, role: "editor" },
  { subject: { personId: personIds.approver! }, role: "approver" },
  { subject: { personId: personIds.viewer! }, role: "viewer" },
];

let gated: string;
/** A run of the gated workflow waiting for its approval, and that approval. */
async function pendingApproval(): Promise<{ run: string; approval: string }> {
  const run = (await olga.expect(201, "POST", `/api/workflows/${gated}/runs`, { inputs: {} })).run.id as string;
  const approval = await root.waitForApproval(run);
  return { run, approval: approval.id as string };
}

/** An "Always allow" on `workflowId`, written as a decision would leave it (making one through a run takes a write step and a person). */
async function grantOn(workflowId: string): Promise<string> {
  const id = unique("grant-");
  await database.grant.create({ data: { id, workflowId, root: "/tmp", pattern: `${id}/**`, createdBy: "Olga", expiresAt: new Date(Date.now() + 86_400_000) } });
  return id;
}

/** A dataset of Olga's workflow (one row: it takes no inputs). */
async function datasetOf(workflowId: string): Promise<string> {
  const response = await fetch(`${server.url}/api/workflows/${workflowId}/datasets?name=${unique("matrix-set-")}&format=jsonl`, {
    method: "POST",
    headers: { ...credentialHeaders(olga.credential), "content-type": "application/x-ndjson" },
    body: '{"inputs":{}}\n',
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { dataset: { id: string } }).dataset.id;
}

/** A finished evaluation of Olga's workflow over `dataset` (its one row's run ended and scored). */
async function evaluationOf(workflowId: string, dataset: string): Promise<string> {
  const { evaluation } = await olga.expect(201, "POST", `/api/workflows/${workflowId}/evaluations`, { datasetId: dataset, scorers: [{ kind: "exact", name: "same" }] });
  await waitFor(async () => ((await olga.expect(200, "GET", `/api/workflows/${workflowId}/evaluations/${evaluation.id}`)).evaluation.status === "finished" ? true : undefined), {
    timeoutMs: 60_000,
    what: "the matrix's evaluation to finish",
  });
  return evaluation.id as string;
}

async function finishedRun(): Promise<string> {
  const run = (await olga.expect(201, "POST", `/api/workflows/${ids.workflow}/runs`, { inputs: {} })).run.id as string;
  await root.waitForRun(run);
  return run;
}

const retention = { keepDays: null, keepLast: null, keepFailedDays: null };
const approvalWebhook = { url: "https://hooks.example.test/studio", format: "json", secret: "matrix-signing-secret-0123" };
const mcpServer = (name: string) => ({ name, transport: "http", url: "http://127.0.0.1:1/mcp" });

/** How each route is asked, beyond the table's key: real ids, a body that fits, a fresh object where the request uses it up. */
const CASES: Record<RouteKey, Case> = {
  "GET /api/approvals": {},
  "GET /api/approvals/[id]": {},
  "POST /api/approvals/[id]": { body: () => ({ decision: "deny" }), fresh: async () => ({ approval: (await pendingApproval()).approval }) },
  // A model nobody serves: the stream opens and says so; what matters here is the door.
  "POST /api/architect/drafts": { body: () => ({ goal: "List a folder.", model: { provider: "openai_compatible", model: "none", baseUrl: "http://127.0.0.1:9/v1" } }) },
  "GET /api/audit": {},
  "GET /api/audit/export": {},
  "POST /api/auth/confirm": { body: () => ({ password: PERSON_PASSWORD }) },
  "GET /api/auth/sessions": {},
  "DELETE /api/auth/sessions": {},
  "GET /api/events": {},
  "GET /api/fs/directories": {},
  "GET /api/metrics": {},
  "GET /api/me": {},
  // A field the caller may not set: refused by name after the door (a 422).
  "PATCH /api/me": { body: () => ({ role: "owner" }) },
  "GET /api/me/notifications": {},
  "PUT /api/me/notifications": { body: () => ({ email: true, browser: true, webhook: null }) },
  "PUT /api/me/password": { body: () => ({ currentPassword: PERSON_PASSWORD, newPassword: PERSON_PASSWORD }) },
  "GET /api/me/tokens": {},
  "POST /api/me/tokens": { body: () => ({ name: unique("matrix"), scopes: ["run:read"] }) },
  "DELETE /api/me/tokens/[id]": {
    fresh: async (who) => ({ token: (await clients[who].expect(201, "POST", "/api/me/tokens", { name: unique("spent"), scopes: ["run:read"] })).record.id }),
  },
  "GET /api/mcp-servers": {},
  "POST /api/mcp-servers": { body: () => mcpServer(unique("matrix")) },
  "GET /api/mcp-servers/[id]": {},
  "PUT /api/mcp-servers/[id]": { body: () => mcpServer("matrix-server") },
  "DELETE /api/mcp-servers/[id]": { fresh: async () => ({ mcpServer: (await root.expect(201, "POST", "/api/mcp-servers", mcpServer(unique("gone")))).server.id }) },
  "POST /api/mcp-servers/[id]/confirm": { body: () => ({ command: "x" }) },
  "POST /api/mcp-servers/[id]/test": {},
  "GET /api/mcp-token": {},
  "POST /api/mcp-token": {},
  "GET /api/people": {},
  "GET /api/people/directory": {},
  "PATCH /api/people/[id]": { body: () => ({ active: true }) },
  "POST /api/people/invitations": { body: () => ({ role: "viewer" }) },
  "DELETE /api/people/invitations/[id]": { fresh: async () => ({ invitation: (await root.expect(201, "POST", "/api/people/invitations", { role: "viewer" })).invitation.id }) },
  "GET /api/runs": {},
  "GET /api/runs/[id]": {},
  "DELETE /api/runs/[id]": { fresh: async () => ({ run: await finishedRun() }) },
  // A finished run: 409, past the door.
  "POST /api/runs/[id]/cancel": {},
  "GET /api/runs/[id]/events": {},
  "GET /api/runs/[id]/steps/[nodeId]/output": {},
  "POST /api/runs/[id]/rerun": { body: () => ({ version: "same" }) },
  "POST /api/runs/[id]/retry": {},
  "GET /api/secrets": {},
  "POST /api/secrets": { body: () => ({ name: unique("MATRIX_SECRET_"), value: "v" }) },
  "GET /api/secrets/[name]": {},
  "PUT /api/secrets/[name]": { body: () => ({ description: "changed" }) },
  "DELETE /api/secrets/[name]": {
    fresh: async () => ({ secret: (await root.expect(201, "POST", "/api/secrets", { name: unique("MATRIX_GONE_"), value: "v" })).secret.name }),
  },
  "GET /api/settings/model-prices": {},
  "PUT /api/settings/model-prices": { body: () => ({ prices: [] }) },
  "GET /api/settings/retention": {},
  "PUT /api/settings/retention": { body: () => retention },
  "GET /api/tools": {},
  "GET /api/workflows": {},
  "POST /api/workflows": { body: () => simpleWorkflow(unique("Made ")) },
  "POST /api/workflows/import": { body: () => simpleWorkflow(unique("Imported ")) },
  "POST /api/workflows/validate": { body: () => simpleWorkflow("Checked") },
  "GET /api/workflows/choices": {},
  "GET /api/workflows/[id]": {},
  "PUT /api/workflows/[id]": { body: () => definitionW },
  "DELETE /api/workflows/[id]": { fresh: async () => ({ workflow: await sharedWorkflow(simpleWorkflow(unique("Doomed "))) }) },
  "GET /api/workflows/[id]/datasets": {},
  // The body is the file: one JSON Lines row (the workflow takes no inputs).
  "POST /api/workflows/[id]/datasets": { path: (current) => `/api/workflows/${current.workflow}/datasets?name=${unique("matrix-upload-")}&format=jsonl`, body: () => ({ inputs: {} }) },
  "POST /api/workflows/[id]/datasets/from-runs": { body: (current) => ({ name: unique("matrix-runs-"), runIds: [current.run] }) },
  "GET /api/workflows/[id]/datasets/[datasetId]": {},
  "DELETE /api/workflows/[id]/datasets/[datasetId]": { fresh: async () => ({ dataset: await datasetOf(ids.workflow) }) },
  "GET /api/workflows/[id]/evaluations": {},
  "POST /api/workflows/[id]/evaluations": { body: (current) => ({ datasetId: current.dataset, scorers: [{ kind: "contains", name: "says done", text: "done" }], concurrency: 1 }) },
  "GET /api/workflows/[id]/evaluations/preflight": { path: (current) => `/api/workflows/${current.workflow}/evaluations/preflight?version=draft` },
  "GET /api/workflows/[id]/evaluations/[evaluationId]": {},
  // Finished: a 409 for whoever may cancel (past the door); the refusals are the table's.
  "POST /api/workflows/[id]/evaluations/[evaluationId]/cancel": {},
  "POST /api/workflows/[id]/duplicate": { body: () => ({ name: unique("Copy ") }) },
  "GET /api/workflows/[id]/activity": {},
  "GET /api/workflows/[id]/grants": {},
  "DELETE /api/workflows/[id]/grants/[grantId]": {
    path: (current) => `/api/workflows/${current.workflow}/grants/${current.grant}`,
    fresh: async () => ({ grant: await grantOn(ids.workflow) }),
  },
  "GET /api/workflows/[id]/pins": {},
  "POST /api/workflows/[id]/pins": { body: (current) => ({ fromRunId: current.run }) },
  "PUT /api/workflows/[id]/pins/[nodeId]": { body: () => ({ output: { content: "pinned" } }) },
  "DELETE /api/workflows/[id]/pins/[nodeId]": {
    fresh: async () => {
      await olga.expect(200, "PUT", `/api/workflows/${ids.workflow}/pins/out`, { output: { content: "again" } });
      return {};
    },
  },
  "GET /api/workflows/[id]/publish": {},
  "POST /api/workflows/[id]/publish": { body: () => ({}) },
  "DELETE /api/workflows/[id]/publish": {
    fresh: async () => {
      await olga.expect(200, "POST", `/api/workflows/${ids.workflow}/publish`, {});
      return {};
    },
  },
  "PUT /api/workflows/[id]/retention": { body: () => retention },
  "DELETE /api/workflows/[id]/retention": {
    fresh: async () => {
      await olga.expect(200, "PUT", `/api/workflows/${ids.workflow}/retention`, retention);
      return {};
    },
  },
  "GET /api/workflows/[id]/notification-webhook": {},
  "PUT /api/workflows/[id]/notification-webhook": { body: () => approvalWebhook },
  "DELETE /api/workflows/[id]/notification-webhook": {
    fresh: async () => {
      await olga.expect(200, "PUT", `/api/workflows/${ids.workflow}/notification-webhook`, approvalWebhook);
      return {};
    },
  },
  "POST /api/workflows/[id]/runs": { body: () => ({ inputs: {} }) },
  "GET /api/workflows/[id]/samples": {},
  "GET /api/workflows/[id]/shares": {},
  // An editor it was shared with sees who else has it, but does not pass it on (only its owner, an owner or an admin).
  "PUT /api/workflows/[id]/shares": { body: () => ({ shares: SHARES() }), handlerRefuses: ["editor"] },
  "GET /api/workflows/[id]/test-runs": { path: (current) => `/api/workflows/${current.workflow}/test-runs?nodeId=out` },
  "POST /api/workflows/[id]/test-runs": { body: () => ({ nodeId: "out" }) },
  "GET /api/workflows/[id]/versions": {},
  "GET /api/workflows/[id]/versions/[version]": {},
  "GET /api/workflows/[id]/webhooks/[nodeId]/listen": { path: (current) => `/api/workflows/${current.workflow}/webhooks/hook/listen?listen=${current.listen}` },
  "POST /api/workflows/[id]/webhooks/[nodeId]/listen": { path: (current) => `/api/workflows/${current.workflow}/webhooks/hook/listen`, body: () => ({ version: 1, seconds: 30 }) },
  "DELETE /api/workflows/[id]/webhooks/[nodeId]/listen": { path: (current) => `/api/workflows/${current.workflow}/webhooks/hook/listen?listen=${current.listen}` },
};

/** The key's path with the ids filled in: `[id]` by what the route's entry says it names. */
function pathOf(key: RouteKey, current: Ids): string {
  const custom = CASES[key].path;
  if (custom) return custom(current);
  const access: RouteAccess = ROUTE_ACCESS[key];
  const pattern = key.split(" ")[1]!;
  const idOf = (): string => {
    if (access.kind === "workflow") return current[access.from];
    if (pattern.startsWith("/api/mcp-servers/")) return current.mcpServer;
    if (pattern.startsWith("/api/people/invitations/")) return current.invitation;
    if (pattern.startsWith("/api/people/")) return current.person;
    if (pattern.startsWith("/api/me/tokens/")) return current.token;
    return "x";
  };
  return pattern.replace("[id]", idOf()).replace("[name]", current.secret).replace("[nodeId]", current.nodeId).replace("[version]", current.version).replace("[datasetId]", current.dataset).replace("[evaluationId]", current.evaluation);
}

interface Answer {
  status: number;
  error: string | null;
  text: string;
}

/** One request as `who`; an event stream's answer is its status (the stream is left at once). */
async function ask(who: Identity, method: string, path: string, body: unknown): Promise<Answer> {
  const headers: Record<string, string> = credentialHeaders(clients[who].credential);
  if (body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    redirect: "manual",
    signal: AbortSignal.timeout(30_000),
  });
  if ((response.headers.get("content-type") ?? "").includes("text/event-stream")) {
    await response.body?.cancel();
    return { status: response.status, error: null, text: "(an event stream)" };
  }
  const text = await response.text();
  let error: string | null = null;
  try {
    error = (JSON.parse(text) as { error?: string }).error ?? null;
  } catch {
    // not JSON: a 204, say
  }
  return { status: response.status, error, text };
}

/** What `who` should get from the route: 401, 403 or 404 when refused, null when let through. */
function expectedFor(key: RouteKey, who: Identity): 401 | 403 | 404 | null {
  if (who === "no credential" || who === "revoked token") return 401;
  const access: RouteAccess = ROUTE_ACCESS[key];
  const role = ROLE_OF[who]!;
  if (access.kind === "workflow" && who === "no share") {
    // What the studio-wide role lacks is refused first; otherwise the workflow does not exist for them.
    return access.alsoStudio && refusedFor(role, { kind: "studio", scope: access.alsoStudio }) ? 403 : 404;
  }
  if (CASES[key].handlerRefuses?.includes(who)) return 403;
  return refusedFor(role, access);
}

/**
 * Every row the API can write, but the security log (refusals are written there), sessions (last seen) and personal
 * tokens' last use: what a refused request must leave as it was.
 */
async function snapshot(): Promise<string> {
  const tables = await Promise.all([
    database.workflow.findMany({ orderBy: { id: "asc" } }),
    database.workflowVersion.findMany({ orderBy: { id: "asc" } }),
    database.workflowShare.findMany(),
    database.workflowPin.findMany(),
    database.run.findMany({ orderBy: { id: "asc" } }),
    database.step.findMany(),
    database.runEvent.findMany({ select: { runId: true, seq: true } }),
    database.approval.findMany({ orderBy: { id: "asc" } }),
    database.grant.findMany(),
    database.webhookEndpoint.findMany(),
    database.webhookTestListen.findMany(),
    database.secret.findMany(),
    database.mcpServer.findMany(),
    database.retentionPolicy.findMany(),
    database.evaluationDataset.findMany({ orderBy: { id: "asc" } }),
    database.evaluationDatasetRow.findMany(),
    database.evaluationRun.findMany({ orderBy: { id: "asc" } }),
    database.evaluationResult.findMany({ orderBy: { id: "asc" } }),
    database.person.findMany({ orderBy: { id: "asc" } }),
    database.invitation.findMany({ orderBy: { id: "asc" } }),
    database.personalAccessToken.findMany({ orderBy: { id: "asc" }, omit: { lastUsedAt: true } }),
    database.meta.findMany({ orderBy: { key: "asc" } }),
  ]);
  return JSON.stringify(tables, (_key, value: unknown) => (typeof value === "bigint" ? value.toString() : value));
}

/** The 404 of a route for an object that does not exist: what a hidden one must say too, word for word. */
async function missingAnswer(key: RouteKey, method: string): Promise<string> {
  const access: RouteAccess = ROUTE_ACCESS[key];
  if (access.kind !== "workflow") throw new Error(`${key} names no workflow's object`);
  const answer = await ask("owner", method, pathOf(key, { ...ids, [access.from]: NOSUCH }), CASES[key].body?.(ids, "owner"));
  expect(answer.status, `${key} for a missing ${access.from}: ${answer.text}`).toBe(404);
  return answer.error!.replaceAll(NOSUCH, ids[access.from]);
}

beforeAll(async () => {
  root = server.client();
  database = server.openDatabase();
  await root.expect(201, "POST", "/api/secrets", { name: "MATRIX_HOOK_TOKEN", value: "hook-token-for-the-matrix" });
  const join = (login: string, role: Role) => invitePerson(root, login, role);
  const [objectsOwner, owner, admin, editor, approver, viewer, outsider] = [
    await join("olga", "editor"),
    await join("oscar", "owner"),
    await join("ada", "admin"),
    await join("edda", "editor"),
    await join("abe", "approver"),
    await join("vera", "viewer"),
    await join("otto", "editor"),
  ];
  olga = objectsOwner.client;
  personIds = { owner: owner.id, admin: admin.id, editor: editor.id, approver: approver.id, viewer: viewer.id, "no share": outsider.id };
  clients = {
    owner: owner.client,
    admin: admin.client,
    editor: editor.client,
    approver: approver.client,
    viewer: viewer.client,
    "no share": outsider.client,
    // Had it not been revoked, this token could do anything an editor may.
    "revoked token": await revokedTokenOf(editor.client, ["workflow:read", "workflow:edit", "workflow:run", "run:read", "run:cancel"]),
    "no credential": new ApiClient(server.url),
  };
  definitionW = workflowW(`matrix-hook-${Date.now().toString(36)}`);
  const workflow = await sharedWorkflow(definitionW);
  ids = { workflow } as Ids;
  const folder = workFolder("studio-matrix-");
  gated = await sharedWorkflow({ name: "Olga gated step", nodes: [{ id: "in", kind: "input" }, shellNode("shell", folder, "echo hi"), { id: "out", kind: "output", value: "x" }], edges: chain("in", "shell", "out") });
  const run = await finishedRun();
  // A whole result kept for its output step, as the engine leaves one (making one through a run takes a result over 1 MB).
  await database.keptOutputPart.create({ data: { id: unique("kept-"), runId: run, nodeId: "out", part: 0, bytes: Buffer.from('{"content":"kept"}') } });
  await olga.expect(200, "PUT", `/api/workflows/${workflow}/pins/out`, { output: { content: "olga's pin" } });
  const { approval } = await pendingApproval();
  const { listen } = await olga.expect(201, "POST", `/api/workflows/${workflow}/webhooks/hook/listen`, { version: 1, seconds: 300 });
  Object.assign(ids, {
    run,
    approval,
    nodeId: "out",
    version: "1",
    mcpServer: (await root.expect(201, "POST", "/api/mcp-servers", mcpServer("matrix-server"))).server.id,
    secret: "MATRIX_HOOK_TOKEN",
    invitation: (await root.expect(201, "POST", "/api/people/invitations", { role: "viewer" })).invitation.id,
    person: objectsOwner.id,
    token: (await olga.expect(201, "POST", "/api/me/tokens", { name: "olga's", scopes: ["run:read"] })).record.id,
    listen: listen.listenId,
    grant: await grantOn(workflow),
    dataset: await datasetOf(workflow),
    evaluation: "",
  } satisfies Omit<Ids, "workflow">);
  ids.evaluation = await evaluationOf(workflow, ids.dataset);
}, 120_000);

afterAll(async () => {
  await database?.$disconnect();
  removeWorkFolders();
});

const ROUTES = Object.keys(ROUTE_ACCESS) as RouteKey[];

describe(`the access matrix: ${ROUTES.length} routes × ${IDENTITIES.length} identities = ${ROUTES.length * IDENTITIES.length} requests`, () => {
  it("covers every route app/ serves, open ones aside", () => {
    const served = everyRoute().map(([method, url]) => `${method} ${url}`);
    const keys = ROUTES.map((key) => key.replace(/\[[^\]]+\]/g, "x"));
    expect(new Set(keys)).toEqual(new Set(served.filter((key) => !(OPEN_ROUTES as readonly string[]).some((open) => open.replace(/\[[^\]]+\]/g, "x") === key))));
    expect(Object.keys(CASES).sort()).toEqual([...ROUTES].sort());
  });

  it("refuses each caller the table refuses, exactly: 401 without a live credential, 403 naming what is lacking, 404 worded as for nothing there; nothing changes", async () => {
    // The check can fail: a write by someone allowed shows in it.
    const quiet = await snapshot();
    await olga.expect(200, "PUT", `/api/workflows/${ids.workflow}/pins/out`, { output: { content: "olga's pin, again" } });
    expect(await snapshot()).not.toBe(quiet);
    let asked = 0;
    for (const key of ROUTES) {
      const [method] = key.split(" ") as [string];
      const refused = IDENTITIES.filter((who) => expectedFor(key, who) !== null);
      if (refused.length === 0) continue;
      const missing = refused.some((who) => expectedFor(key, who) === 404) ? await missingAnswer(key, method) : null;
      // Read once around the route's refusals (nothing else runs meanwhile): a change is pinned on the route and its callers.
      const before = await snapshot();
      for (const who of refused) {
        const expected = expectedFor(key, who)!;
        const answer = await ask(who, method, pathOf(key, ids), CASES[key].body?.(ids, who));
        expect(answer.status, `${who}: ${key} → ${answer.text.slice(0, 300)}`).toBe(expected);
        if (expected === 404) expect(answer.error, `${who}: ${key}, a hidden object's 404 is a missing one's`).toBe(missing);
        asked += 1;
      }
      expect(await snapshot(), `${key} was refused (to ${refused.join(", ")}) yet changed the database`).toBe(before);
    }
    // owner..viewer and the outsider on every route they may not use, the two without a credential on every one.
    expect(asked).toBeGreaterThan(2 * ROUTES.length);
    console.info(`access matrix: ${asked} refused requests checked`);
  });

  it("lets each caller the table allows through: whatever the handler answers, it is not a 401, 403 or 404", async () => {
    let asked = 0;
    for (const key of ROUTES) {
      const [method] = key.split(" ") as [string];
      for (const who of IDENTITIES.filter((each) => expectedFor(key, each) === null)) {
        const current = { ...ids, ...(await CASES[key].fresh?.(who)) };
        const answer = await ask(who, method, pathOf(key, current), CASES[key].body?.(current, who));
        expect([401, 403, 404], `${who}: ${key} → ${answer.status} ${answer.text.slice(0, 300)}`).not.toContain(answer.status);
        expect(answer.status, `${who}: ${key} → ${answer.text.slice(0, 300)}`).toBeLessThan(500);
        asked += 1;
      }
      // Runs the allowed requests started finish before the next route is asked, so nothing moves under a later check.
      await waitFor(async () => ((await database.run.count({ where: { status: "running" } })) + (await database.evaluationRun.count({ where: { status: "running" } })) === 0 ? true : undefined), {
        timeoutMs: 30_000,
        what: `the runs ${key} started to finish`,
      });
    }
    expect(asked).toBeGreaterThan(3 * ROUTES.length);
    console.info(`access matrix: ${asked} allowed requests checked`);
  });
});

/** A page's HTML as `who` sees it. */
async function page(who: Identity, url: string): Promise<{ status: number; html: string }> {
  const response = await fetch(`${server.url}${url}`, { headers: credentialHeaders(clients[who].credential), redirect: "manual", signal: AbortSignal.timeout(60_000) });
  return { status: response.status, html: await response.text() };
}

/** Run inputs → a Sub-workflow step calling `childId` → output. */
const callerOf = (name: string, childId: string) => ({
  name,
  nodes: [
    { id: "in", kind: "input", fields: [] },
    { id: "call", kind: "subworkflow", label: "Call it", workflowId: childId, inputs: {} },
    { id: "out", kind: "output", value: "{{ nodes.call.output }}" },
  ],
  edges: chain("in", "call", "out"),
});

describe("ids guessed from elsewhere: a 404 worded as for nothing there, and never another workflow's object through one's own", () => {
  /** Root's (the first owner's): a child nobody else is given, a caller shared with the editor and the viewer, a run of it. */
  let child: string;
  let caller: string;
  let callerRun: string;
  let childRun: string;

  beforeAll(async () => {
    child = (await root.createWorkflow({ ...simpleWorkflow("Rootchild Secretname"), nodes: [{ id: "in", kind: "input" }, { id: "out", kind: "output", value: "child output" }] })).id;
    await root.expect(200, "POST", `/api/workflows/${child}/publish`, {});
    caller = (await root.createWorkflow(callerOf("Root caller", child))).id;
    await root.expect(200, "PUT", `/api/workflows/${caller}/shares`, { shares: SHARES() });
    callerRun = (await root.startRun(caller)).id;
    const finished = await root.waitForRun(callerRun);
    expect(finished.status, finished.error).toBe("succeeded");
    childRun = finished.childRuns[0].id;
  });

  /** What `who` gets for `path` with `id` in it, and what they get for a made-up id in its place: the same words. */
  async function hiddenLikeMissing(who: Identity, method: string, pathWith: (id: string) => string, id: string, body?: unknown | ((id: string) => unknown)): Promise<void> {
    const bodyWith = (each: string) => (typeof body === "function" ? (body as (id: string) => unknown)(each) : body);
    const hidden = await ask(who, method, pathWith(id), bodyWith(id));
    const missing = await ask(who, method, pathWith(NOSUCH), bodyWith(NOSUCH));
    expect(missing.status, `${who}: ${method} ${pathWith(NOSUCH)}`).toBe(404);
    expect({ status: hidden.status, error: hidden.error }, `${who}: ${method} ${pathWith(id)}`).toEqual({ status: 404, error: missing.error!.replaceAll(NOSUCH, id) });
  }

  it("a child run belongs to the workflow it ran: those who read only the caller neither open it nor see it named on the caller's run", async () => {
    for (const who of ["editor", "viewer", "no share"] as const) {
      await hiddenLikeMissing(who, "GET", (id) => `/api/runs/${id}`, childRun);
      await hiddenLikeMissing(who, "GET", (id) => `/api/runs/${id}/events`, childRun);
      await hiddenLikeMissing(who, "POST", (id) => `/api/runs/${id}/cancel`, childRun);
      await hiddenLikeMissing(who, "POST", (id) => `/api/runs/${id}/rerun`, childRun, { version: "same" });
      await hiddenLikeMissing(who, "DELETE", (id) => `/api/runs/${id}`, childRun);
    }
    // The caller's run: its step's output is the caller's; the link to the child's run (its id, its workflow's name) is not.
    const seen = await clients.viewer.expect(200, "GET", `/api/runs/${callerRun}`);
    expect(seen.run.childRuns).toEqual([]);
    expect(JSON.stringify(seen)).not.toContain("Rootchild Secretname");
    expect(JSON.stringify(seen)).not.toContain(childRun);
    const runPage = await page("viewer", `/runs/${callerRun}`);
    expect(runPage.status).toBe(200);
    expect(runPage.html).not.toContain("Rootchild Secretname");
    expect((await page("viewer", `/runs/${childRun}`)).status).toBe(404);
    // Whoever reads the child sees it linked both ways; whoever reads the child only does not see the caller named.
    expect((await root.getRun(callerRun)).childRuns.map((link: Json) => link.id)).toEqual([childRun]);
    await root.expect(200, "PUT", `/api/workflows/${child}/shares`, { shares: [{ subject: { personId: personIds["no share"]! }, role: "viewer" }] });
    const fromChild = await clients["no share"].expect(200, "GET", `/api/runs/${childRun}`);
    expect(fromChild.run.sourceRun).toBeNull();
    expect(JSON.stringify(fromChild)).not.toContain("Root caller");
    await root.expect(200, "PUT", `/api/workflows/${child}/shares`, { shares: [] });
  });

  it("a Sub-workflow step or an error workflow a person adds must name a workflow they may run: one they may not is refused as one that does not exist", async () => {
    const hidden = (await root.createWorkflow(simpleWorkflow("Rootprivate Target"))).id as string;
    await root.expect(200, "POST", `/api/workflows/${hidden}/publish`, {});
    const before = await snapshot();
    for (const [what, definition] of [
      ["a new workflow", (target: string) => ["POST", "/api/workflows", callerOf("Reaching out", target)]],
      ["an import", (target: string) => ["POST", "/api/workflows/import", callerOf("Reaching out", target)]],
      ["a shared workflow edited", (target: string) => ["PUT", `/api/workflows/${ids.workflow}`, { ...definitionW, nodes: [...definitionW.nodes, { id: "call", kind: "subworkflow", workflowId: target, inputs: {} }] }]],
      ["an error workflow chosen", (target: string) => ["PUT", `/api/workflows/${ids.workflow}`, { ...definitionW, errorWorkflowId: target }]],
    ] as const) {
      const [method, url, body] = definition(hidden);
      const refused = await ask("editor", method, url, body);
      const [, , missingBody] = definition(NOSUCH);
      const missing = await ask("editor", method, url, missingBody);
      expect(refused.status, `${what}: ${refused.text}`).toBe(422);
      expect(refused.error, what).toBe(missing.error!.replaceAll(NOSUCH, hidden));
    }
    // A copy of a workflow that calls one the person may not run would be theirs to run: refused, naming the step.
    const copy = await ask("editor", "POST", `/api/workflows/${caller}/duplicate`, {});
    expect(copy.status, copy.text).toBe(422);
    expect(await snapshot()).toBe(before);
    // What the workflow already called stays callable by those who edit it: the step was its owner's choice.
    const kept = (await root.expect(200, "GET", `/api/workflows/${caller}`)).workflow.definition;
    await clients.editor.expect(200, "PUT", `/api/workflows/${caller}`, { ...kept, description: "edited by Edda" });
    // The editor's check says of a hidden workflow what it says of a missing one, and checks only drafts of what they read.
    const checked = await clients.editor.expect(200, "POST", "/api/workflows/validate", callerOf("Checked", hidden));
    const checkedMissing = await clients.editor.expect(200, "POST", "/api/workflows/validate", callerOf("Checked", NOSUCH));
    expect(JSON.stringify(checked.problems)).toBe(JSON.stringify(checkedMissing.problems).replaceAll(NOSUCH, hidden));
    expect(JSON.stringify(checked)).not.toContain("Rootprivate Target");
    await hiddenLikeMissing("editor", "POST", (id) => `/api/workflows/validate?workflowId=${id}`, hidden, simpleWorkflow("Draft"));
  });

  it("a For each step's item runs are runs of its workflow: 404 to who cannot read it, and not reachable through another workflow's path", async () => {
    const folder = workFolder("studio-matrix-items-");
    for (const file of ["a.txt", "b.txt"]) writeFileSync(path.join(folder, file), file);
    const loop = await sharedWorkflow({
      name: "Olga loop",
      nodes: [
        { id: "in", kind: "input", fields: [] },
        { id: "list", kind: "tool", tool: "list_dir", settings: { root: folder }, arguments: { path: "." } },
        { id: "loop", kind: "foreach", label: "Each file", list: "{{ nodes.list.data.entries }}", concurrency: 2 },
        { id: "look", kind: "tool", tool: "list_dir", settings: { root: folder }, arguments: { path: "." } },
        { id: "out", kind: "output", value: "{{ nodes.loop.data }}" },
      ],
      edges: [edge("in", "list"), edge("list", "loop"), { id: "loop-look", source: "loop", target: "look", sourceHandle: "item" }, { id: "loop-out", source: "loop", target: "out", sourceHandle: "done" }],
    });
    const run = (await olga.expect(201, "POST", `/api/workflows/${loop}/runs`, { inputs: {} })).run.id as string;
    const finished = await root.waitForRun(run, undefined, 30_000);
    expect(finished.status, finished.error).toBe("succeeded");
    const items = (finished.childRuns as Json[]).filter((link) => link.kind === "for-each").map((link) => link.id as string);
    expect(items).toHaveLength(2);
    for (const item of items) {
      expect((await clients.viewer.get(`/api/runs/${item}`)).status).toBe(200);
      await hiddenLikeMissing("no share", "GET", (id) => `/api/runs/${id}`, item);
      // The editor reads both workflows; an item of the loop is still no run of W to pin from.
      await hiddenLikeMissing("editor", "PUT", () => `/api/workflows/${ids.workflow}/pins/out`, item, (id: string) => ({ fromRunId: id }));
    }
  });

  it("pins, versions and webhook captures are their workflow's: another workflow's run, pin, version or capture does not open through this one's path", async () => {
    await root.expect(200, "PUT", `/api/workflows/${caller}/pins/out`, { output: { content: "Rootpin Content" } });
    // The editor reads both W and the caller: still, the caller's run is no run of W.
    for (const [method, url, body] of [
      ["PUT", `/api/workflows/${ids.workflow}/pins/out`, (id: string) => ({ fromRunId: id })],
      ["POST", `/api/workflows/${ids.workflow}/pins`, (id: string) => ({ fromRunId: id })],
    ] as const) {
      await hiddenLikeMissing("editor", method, () => url, callerRun, body);
      await hiddenLikeMissing("editor", method, () => url, childRun, body);
    }
    expect(JSON.stringify(await clients.editor.expect(200, "GET", `/api/workflows/${ids.workflow}/pins`))).not.toContain("Rootpin Content");
    // A node of another workflow is no node of this one: not pinned (a 422 that says it is not in this workflow), nothing written.
    const before = await snapshot();
    expect((await ask("editor", "PUT", `/api/workflows/${ids.workflow}/pins/call`, { output: { content: "x" } })).status).toBe(422);
    expect((await ask("editor", "DELETE", `/api/workflows/${ids.workflow}/pins/call`, undefined)).status).toBe(404);
    expect(await snapshot()).toBe(before);
    // Versions are numbered per workflow: W's first is W's.
    const first = await clients.editor.expect(200, "GET", `/api/workflows/${ids.workflow}/versions/1`);
    expect(first.version.workflowId).toBe(ids.workflow);
    expect(first.version.definition.name).toBe("Olga pipeline");
    await hiddenLikeMissing("no share", "GET", (id) => `/api/workflows/${id}/versions/1`, ids.workflow);
    // A capture of a workflow the editor does not read: its listen id through W's path says only "stopped".
    const hook = `rootprivate-hook-${Date.now().toString(36)}`;
    const hidden = (await root.createWorkflow({ ...workflowW(hook), name: "Rootprivate Hooked" })).id as string;
    const { listen } = await root.expect(201, "POST", `/api/workflows/${hidden}/webhooks/hook/listen`, { version: 1, seconds: 60 });
    const delivered = await rawRequest(`${server.url}/hooks-test/${hook}`, { method: "POST", body: { secret: "Rootcapture Payload" }, headers: { "x-hook-token": "hook-token-for-the-matrix" } });
    expect(delivered.status).toBeLessThan(300);
    const ownStream = await connectEventStream(`${server.url}/api/workflows/${hidden}/webhooks/hook/listen?listen=${listen.listenId}`, { token: server.token });
    expect((await ownStream.rest()).map((message) => message.event)).toContain("captured");
    const through = await connectEventStream(`${server.url}/api/workflows/${ids.workflow}/webhooks/hook/listen?listen=${listen.listenId}`, clients.editor.credential);
    const messages = await through.rest();
    expect(messages.map((message) => message.event)).toEqual(["stopped"]);
    expect(JSON.stringify(messages)).not.toContain("Rootcapture Payload");
    await hiddenLikeMissing("editor", "GET", (id) => `/api/workflows/${id}/webhooks/hook/listen?listen=${listen.listenId}`, hidden);
    await hiddenLikeMissing("editor", "POST", (id) => `/api/workflows/${id}/webhooks/hook/listen`, hidden, { version: 1 });
  });

  it("a secret limited to workflows one may not read is not listed, and by name is a 404 like a missing one; one shared with a readable workflow names only that", async () => {
    await root.expect(201, "POST", "/api/secrets", { name: "ROOTONLY_SECRET", value: "v1", workflows: [child] });
    await root.expect(201, "POST", "/api/secrets", { name: "PARTLY_SHARED", value: "v2", workflows: [ids.workflow, child] });
    const listed: Json[] = (await clients.editor.expect(200, "GET", "/api/secrets")).secrets;
    expect(listed.map((secret) => secret.name)).not.toContain("ROOTONLY_SECRET");
    expect(listed.find((secret) => secret.name === "PARTLY_SHARED")?.workflows).toEqual([ids.workflow]);
    expect(JSON.stringify(listed)).not.toContain(child);
    await hiddenLikeMissing("editor", "GET", (name) => `/api/secrets/${name}`, "ROOTONLY_SECRET");
    const secretsPage = await page("editor", "/settings/secrets");
    expect(secretsPage.status).toBe(200);
    expect(secretsPage.html).not.toContain("ROOTONLY_SECRET");
    // Whoever manages secrets sees them as they are.
    expect((await root.expect(200, "GET", "/api/secrets/PARTLY_SHARED")).secret.workflows).toEqual([ids.workflow, child].sort());
  });

  it("approvals of a workflow one may not read: a 404 by id, absent from the inbox's list, and the live feed carries none of its changes", async () => {
    const { approval, run } = await pendingApproval();
    await hiddenLikeMissing("no share", "GET", (id) => `/api/approvals/${id}`, approval);
    await hiddenLikeMissing("no share", "POST", (id) => `/api/approvals/${id}`, approval, { decision: "approve" });
    expect((await clients["no share"].expect(200, "GET", "/api/approvals?limit=1000")).approvals).toEqual([]);
    expect((await clients["no share"].expect(200, "GET", `/api/approvals?runId=${run}`)).approvals).toEqual([]);
    const inbox = await page("no share", "/inbox");
    expect(inbox.status).toBe(200);
    expect(inbox.html).not.toContain("Olga gated step");
    // The feed: Otto's own run's changes come through; none of Olga's, before or after, and the count is his.
    const feed = await connectEventStream(`${server.url}/api/events`, clients["no share"].credential);
    try {
      expect(await feed.next()).toMatchObject({ event: "pending-approvals", data: JSON.stringify({ pendingApprovals: 0 }) });
      const hiddenRun = await finishedRun();
      await root.expect(200, "POST", `/api/approvals/${approval}`, { decision: "deny" });
      const own = (await clients["no share"].createWorkflow(simpleWorkflow("Otto own"))).id as string;
      const ownRun = (await clients["no share"].startRun(own)).id as string;
      const seen: Json[] = [];
      await waitFor(
        async () => {
          const message = await feed.next();
          seen.push(JSON.parse(message!.data));
          return seen.some((change) => change.runId === ownRun && change.type === "run-succeeded") ? true : undefined;
        },
        { timeoutMs: 30_000, what: "Otto's run's end on his feed" },
      );
      expect(seen.filter((change) => change.runId !== ownRun)).toEqual([]);
      expect(seen.every((change) => change.pendingApprovals === 0)).toBe(true);
      expect(JSON.stringify(seen)).not.toContain(hiddenRun);
    } finally {
      feed.close();
    }
  });

  it("served over MCP with a person's token, a workflow they may not run is neither listed nor called, and nothing runs", async () => {
    const { token } = await clients["no share"].expect(201, "POST", "/api/me/tokens", { name: "otto agent", scopes: ["workflow:read", "workflow:run"] });
    const mcp = new Client({ name: "matrix", version: "1.0.0" });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    try {
      const { tools } = await mcp.listTools();
      expect(tools.map((tool) => tool.title)).not.toContain("Olga pipeline");
      expect(tools.map((tool) => tool.title)).toContain("Otto own");
      const runs = await database.run.count({ where: { workflowId: ids.workflow } });
      await expect(mcp.callTool({ name: "olga_pipeline", arguments: {} })).rejects.toThrow(/No workflow is served as "olga_pipeline"/);
      expect(await database.run.count({ where: { workflowId: ids.workflow } })).toBe(runs);
    } finally {
      await mcp.close();
    }
  });

  it("pages: a workflow's editor and a run's page are the 404 page to who may not read them, without its name; settings pages show nothing of what the role may not manage", async () => {
    const editorPage = await page("no share", `/workflows/${ids.workflow}`);
    // The editor's address shares the workflow list's loading screen (app/workflows/loading.tsx), so its answer streams:
    // the status goes out before the page's check, and what follows is the 404 page.
    expect([200, 404]).toContain(editorPage.status);
    expect(editorPage.html).toContain("This page does not exist");
    expect(editorPage.html).not.toContain("Olga pipeline");
    const runPage = await page("no share", `/runs/${ids.run}`);
    expect(runPage.status).toBe(404);
    expect(runPage.html).not.toContain("Olga pipeline");
    expect((await page("viewer", `/workflows/${ids.workflow}`)).status).toBe(200);
    for (const [url, object] of [
      ["/settings/people", "Otto"],
      ["/settings/mcp", "matrix-server"],
      ["/settings/secrets", "MATRIX_HOOK_TOKEN"],
      ["/settings/security", "access-refused"],
      ["/settings/retention", "Olga pipeline"],
    ] as const) {
      const shown = await page("viewer", url);
      expect(shown.status, url).toBe(200);
      expect(shown.html, url).not.toContain(object);
    }
  });
});
