import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cpSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import pg from "pg";
import type { DatabaseProvider } from "@/lib/persistence";
import { newId } from "@/lib/persistence/ids";
import { sqliteDate } from "@/lib/persistence/prepared";
import { createSecretBox, SECRET_KEY_BYTES } from "@/lib/persistence/secret-box";
import { SECRET_KEY_CHECK, SECRET_KEY_FILE, secretContext, sealKeyCheck } from "@/lib/persistence/secret-key";
import { sessionIdOf } from "@/lib/persistence/session-store";
import { EXAMPLES_SEEDED_KEY } from "@/lib/server/example-workflows";
import { AuditActionSchema, type AuditAction } from "@/lib/validations/access";
import { WorkflowDefinitionSchema } from "@/lib/workflow/definition";
import { BYPASS, chain, writeFileWorkflow } from "./fixtures";
import { REPO_ROOT } from "./studio-server";

/**
 * A studio's data as it was before people and roles (one identity: the access
 * token, or the one STUDIO_PASSWORD with a typed name), for the upgrade test:
 * a database migrated only up to the migration before people existed, filled
 * through SQL with what such a studio held, its secrets sealed with the data
 * folder's key file as the studio seals them.
 */

/** The first migration of people and roles: the old database has every migration before it, and none from it on. */
export const PEOPLE_MIGRATION = "20261204045522_people_and_roles";

const run = promisify(execFile);

/**
 * Applies the migrations of `provider` that sort before {@link PEOPLE_MIGRATION}
 * to the empty database at `url`, with `prisma migrate deploy` on a copy of
 * those migrations alone: Prisma's bookkeeping then says exactly what an old
 * studio's did, and the studio's own start applies the rest.
 */
export async function migrateBeforePeople(provider: DatabaseProvider, url: string): Promise<string[]> {
  const source = path.join(REPO_ROOT, "prisma", provider, "migrations");
  const folder = path.join(os.tmpdir(), `studio-upgrade-migrations-${randomBytes(6).toString("hex")}`);
  try {
    mkdirSync(path.join(folder, "migrations"), { recursive: true });
    cpSync(path.join(REPO_ROOT, "prisma", provider, "schema.prisma"), path.join(folder, "schema.prisma"));
    cpSync(path.join(source, "migration_lock.toml"), path.join(folder, "migrations", "migration_lock.toml"));
    const applied = readdirSync(source, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && entry.name < PEOPLE_MIGRATION)
      .map((entry) => entry.name)
      .sort();
    for (const name of applied) cpSync(path.join(source, name), path.join(folder, "migrations", name), { recursive: true });
    const cli = path.join(REPO_ROOT, "node_modules", "prisma", "build", "index.js");
    await run(process.execPath, [cli, "migrate", "deploy", "--config", path.join(REPO_ROOT, "prisma.config.ts"), "--schema", path.join(folder, "schema.prisma")], {
      cwd: REPO_ROOT,
      env: { ...process.env, DATABASE_URL: url, PRISMA_HIDE_UPDATE_MESSAGE: "1", CHECKPOINT_DISABLE: "1", NO_COLOR: "1" },
    });
    return applied;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Plain SQL on the old (and then upgraded) database, the same on both providers: `?` placeholders, dates and booleans converted. */
export interface RawDatabase {
  insert(table: string, row: Record<string, unknown>): Promise<void>;
  query<Row = Record<string, unknown>>(sql: string, values?: unknown[]): Promise<Row[]>;
  tables(): Promise<string[]>;
  close(): Promise<void>;
}

export async function openRawDatabase(provider: DatabaseProvider, url: string): Promise<RawDatabase> {
  if (provider === "sqlite") {
    const database = new Database(url.replace(/^file:/, ""));
    const value = (each: unknown) => (each instanceof Date ? sqliteDate(each.toISOString()) : typeof each === "boolean" ? Number(each) : each);
    return {
      async insert(table, row) {
        const columns = Object.keys(row);
        database.prepare(`INSERT INTO "${table}" (${columns.map((column) => `"${column}"`).join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`).run(...Object.values(row).map(value));
      },
      async query<Row>(sql: string, values: unknown[] = []) {
        return database.prepare(sql).all(...values.map(value)) as Row[];
      },
      async tables() {
        const rows = database.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> '_prisma_migrations'`).all() as { name: string }[];
        return rows.map((row) => row.name).sort();
      },
      async close() {
        database.close();
      },
    };
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const numbered = (sql: string) => {
    let index = 0;
    return sql.replace(/\?/g, () => `$${++index}`);
  };
  return {
    async insert(table, row) {
      const columns = Object.keys(row);
      await client.query(`INSERT INTO "${table}" (${columns.map((column) => `"${column}"`).join(", ")}) VALUES (${columns.map((_, index) => `$${index + 1}`).join(", ")})`, Object.values(row));
    },
    async query<Row>(sql: string, values: unknown[] = []) {
      return (await client.query(numbered(sql), values)).rows as Row[];
    },
    async tables() {
      const { rows } = await client.query<{ name: string }>(`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> '_prisma_migrations'`);
      return rows.map((row) => row.name).sort();
    },
    async close() {
      await client.end();
    },
  };
}

/** The primary key column of each table the old schema had (the rest are `id`). */
const KEYS: Record<string, string> = { Secret: "name", Meta: "key", WebhookEndpoint: "path", WebhookTestListen: "path" };
export const keyOf = (table: string): string => KEYS[table] ?? "id";

/** Every table's keys, as text: what "nothing lost" compares. */
export async function keysOfEveryTable(database: RawDatabase, tables: readonly string[]): Promise<Record<string, string[]>> {
  const keys: Record<string, string[]> = {};
  for (const table of tables) {
    const rows = await database.query<{ key: unknown }>(`SELECT "${keyOf(table)}" AS "key" FROM "${table}"`);
    keys[table] = rows.map((row) => String(row.key)).sort();
  }
  return keys;
}

/** What the old studio held, by the names the test asks for. */
export interface OldStudio {
  workflows: { note: string; query: string; hook: string };
  /** A run whose write was approved (by "Ada", a name alone) and which succeeded. */
  decidedRunId: string;
  decidedApprovalId: string;
  /** A run waiting on the pending approval: the note it writes, once approved, lands in `noteFolder`. */
  waitingRunId: string;
  pendingApprovalId: string;
  noteFolder: string;
  /** A run that used the secret. */
  queryRunId: string;
  secretName: string;
  /** The file the secret's DSN names: the query's run reads it. */
  notesDatabase: string;
  hookPath: string;
  mcpServerId: string;
  /** The cookie of a browser signed in before the upgrade (a session with no person). */
  sessionCookie: string;
  /** That session's id, as the list of signed-in browsers shows its start. */
  sessionId: string;
}

const HOUR = 3600_000;

/**
 * What the security log recorded before people existed: its actions then were
 * the first of today's, up to "retention-changed" (the list only grows, so
 * every entry ever written still reads). Each must still read.
 */
export const PRE_PEOPLE_AUDIT_ACTIONS: readonly AuditAction[] = AuditActionSchema.options.slice(0, AuditActionSchema.options.indexOf("retention-changed") + 1);

/**
 * Fills the old database as a studio of one identity left it, a few hours of
 * use: three workflows (one with two versions, one published with a webhook),
 * runs with their steps and events, a decided and a pending approval, a
 * secret sealed with the data folder's key, a grant, a pin, a retention
 * policy, an MCP server, the security log and a live session.
 */
export async function fillOldStudio(database: RawDatabase, dataDir: string, folders: { notes: string; work: string }): Promise<OldStudio> {
  const now = Date.now();
  const at = (hoursAgo: number) => new Date(now - hoursAgo * HOUR);

  // The data folder's key, as the studio made it at its first start, and the check the studio writes beside it.
  const key = randomBytes(SECRET_KEY_BYTES);
  writeFileSync(path.join(dataDir, SECRET_KEY_FILE), `${key.toString("base64")}\n`, { mode: 0o600 });
  const box = createSecretBox(key);
  await database.insert("Meta", { key: SECRET_KEY_CHECK, value: sealKeyCheck(box) });
  await database.insert("Meta", { key: EXAMPLES_SEEDED_KEY, value: at(48).toISOString() });

  const workflow = async (definition: unknown, versions: number, hoursAgo: number, published = false) => {
    const parsed = WorkflowDefinitionSchema.parse(definition);
    const id = newId(now - hoursAgo * HOUR);
    await database.insert("Workflow", {
      id,
      name: parsed.name,
      description: parsed.description,
      latestVersion: versions,
      createdAt: at(hoursAgo),
      updatedAt: at(hoursAgo - 1),
      publishedVersion: published ? versions : null,
      publishedAt: published ? at(hoursAgo - 1) : null,
    });
    const versionIds: string[] = [];
    for (let version = 1; version <= versions; version++) {
      const versionId = newId();
      versionIds.push(versionId);
      const stored = version === versions ? parsed : { ...parsed, description: `${parsed.description} (draft ${version})` };
      await database.insert("WorkflowVersion", { id: versionId, workflowId: id, version, definition: JSON.stringify(stored), createdAt: at(hoursAgo - version / 10) });
    }
    return { id, versionIds };
  };

  const note = await workflow(writeFileWorkflow(folders.notes, { name: "Write a note" }), 2, 30);
  const secretName = "NOTES_DB";
  const notesDatabase = path.join(folders.work, "notes.db");
  const queryDefinition = {
    name: "Count the notes",
    ...BYPASS,
    nodes: [
      { id: "in", kind: "input", fields: [] },
      { id: "db", kind: "tool", tool: "sql", operation: "query", arguments: { dsn: `\${${secretName}}`, sql: "SELECT count(*) AS notes FROM notes" } },
    ],
    edges: chain("in", "db"),
  };
  const query = await workflow(queryDefinition, 1, 20);
  const hookPath = `oldhook${randomBytes(8).toString("hex")}`;
  const hookDefinition = {
    name: "Incoming hook",
    nodes: [
      { id: "in", kind: "input", fields: [] },
      { id: "hook", kind: "webhook", hookId: hookPath, authentication: "none" },
      { id: "out", kind: "output", value: "delivered" },
    ],
    edges: [...chain("hook", "out"), ...chain("in", "out")],
  };
  const hook = await workflow(hookDefinition, 1, 10, true);
  await database.insert("WebhookEndpoint", { path: hookPath, hookId: hookPath, workflowId: hook.id, nodeId: "hook", versionId: hook.versionIds[0], createdAt: at(9) });

  await database.insert("Secret", {
    name: secretName,
    description: "The notes database",
    tool: "sql",
    ciphertext: box.seal(`sqlite://${notesDatabase}`, secretContext(secretName)),
    createdAt: at(21),
    updatedAt: at(21),
  });

  type OldEvent = { type: string; nodeId: string | null; payload: unknown };
  const runRow = async (workflowId: string, versionId: string, status: string, inputs: Record<string, unknown>, hoursAgo: number, output: unknown, runEvents: OldEvent[]) => {
    const id = newId(now - hoursAgo * HOUR);
    const finished = status === "succeeded";
    await database.insert("Run", {
      id,
      workflowId,
      versionId,
      status,
      inputs: JSON.stringify(inputs),
      output: finished ? JSON.stringify(output) : null,
      lastSeq: runEvents.length,
      createdAt: at(hoursAgo),
      startedAt: at(hoursAgo),
      finishedAt: finished ? at(hoursAgo - 0.1) : null,
      trigger: "person",
    });
    for (const [index, event] of runEvents.entries()) {
      await database.insert("RunEvent", { runId: id, seq: index + 1, type: event.type, nodeId: event.nodeId, payload: JSON.stringify(event.payload), createdAt: at(hoursAgo - index / 1000) });
    }
    return id;
  };
  const step = (runId: string, nodeId: string, status: string, hoursAgo: number, fields: Record<string, unknown> = {}) =>
    database.insert("Step", {
      id: newId(),
      runId,
      nodeId,
      status,
      attempt: status === "pending" ? 0 : 1,
      startedAt: status === "pending" ? null : at(hoursAgo),
      finishedAt: status === "succeeded" ? at(hoursAgo - 0.01) : null,
      ...fields,
    });
  const approvalSummary = (id: string, text: string, decided: boolean) => ({
    id,
    nodeId: "write",
    kind: "write",
    tool: "write_file",
    operation: null,
    arguments: { path: "note.txt", content: text },
    preview: `+${text}`,
    effect: { kind: "text", text: `+${text}` },
    digest: "",
    status: decided ? "approved" : "pending",
    decision: decided ? "once" : null,
    feedback: null,
    // As approvals were decided before people: a name alone.
    decidedBy: decided ? "Ada" : null,
    decidedAt: decided ? at(29).toISOString() : null,
  });
  const inputOutput = (inputs: Record<string, unknown>) => JSON.stringify({ content: JSON.stringify(inputs), data: inputs });

  // A run whose write Ada approved, on the note workflow's first version.
  const decidedApprovalId = newId(now - 29.5 * HOUR);
  const decidedInputs = { text: "first", file: "note.txt" };
  const decidedRunId = await runRow(note.id, note.versionIds[0]!, "succeeded", decidedInputs, 29.5, "wrote note.txt", [
    { type: "run-started", nodeId: null, payload: { inputs: decidedInputs } },
    { type: "node-started", nodeId: "in", payload: { kind: "input", attempt: 1 } },
    { type: "node-succeeded", nodeId: "in", payload: { output: { content: JSON.stringify(decidedInputs), data: decidedInputs }, durationMs: 1 } },
    { type: "node-started", nodeId: "write", payload: { kind: "tool", attempt: 1, tool: "write_file", operation: null } },
    { type: "approval-requested", nodeId: "write", payload: { approval: approvalSummary(decidedApprovalId, "first", false) } },
    { type: "run-awaiting-input", nodeId: null, payload: { approvalId: decidedApprovalId } },
    { type: "approval-decided", nodeId: "write", payload: { approval: approvalSummary(decidedApprovalId, "first", true) } },
    { type: "node-succeeded", nodeId: "write", payload: { output: { content: "Wrote note.txt" }, durationMs: 4 } },
    { type: "node-started", nodeId: "out", payload: { kind: "output", attempt: 1 } },
    { type: "node-succeeded", nodeId: "out", payload: { output: { content: "wrote note.txt" }, durationMs: 1 } },
    { type: "run-succeeded", nodeId: null, payload: { output: "wrote note.txt" } },
  ]);
  await step(decidedRunId, "in", "succeeded", 29.5, { input: JSON.stringify(decidedInputs), output: inputOutput(decidedInputs) });
  await step(decidedRunId, "write", "succeeded", 29.4, { output: JSON.stringify({ content: "Wrote note.txt" }) });
  await step(decidedRunId, "out", "succeeded", 29.3, { output: JSON.stringify({ content: "wrote note.txt" }) });
  await database.insert("Approval", {
    id: decidedApprovalId,
    runId: decidedRunId,
    nodeId: "write",
    key: "write:0",
    kind: "write",
    tool: "write_file",
    arguments: JSON.stringify({ path: "note.txt", content: "first" }),
    preview: "+first",
    status: "approved",
    decision: "once",
    decidedBy: "Ada",
    decidedAt: at(29),
    createdAt: at(29.5),
  });

  // A run of the second version waiting for a decision when the old studio stopped.
  const pendingApprovalId = newId(now - 2 * HOUR);
  const waitingInputs = { text: "written after the upgrade", file: "note.txt" };
  const waitingRunId = await runRow(note.id, note.versionIds[1]!, "awaiting_input", waitingInputs, 2, null, [
    { type: "run-started", nodeId: null, payload: { inputs: waitingInputs } },
    { type: "node-started", nodeId: "in", payload: { kind: "input", attempt: 1 } },
    { type: "node-succeeded", nodeId: "in", payload: { output: { content: JSON.stringify(waitingInputs), data: waitingInputs }, durationMs: 1 } },
    { type: "node-started", nodeId: "write", payload: { kind: "tool", attempt: 1, tool: "write_file", operation: null } },
    { type: "approval-requested", nodeId: "write", payload: { approval: approvalSummary(pendingApprovalId, waitingInputs.text, false) } },
    { type: "run-awaiting-input", nodeId: null, payload: { approvalId: pendingApprovalId } },
  ]);
  await step(waitingRunId, "in", "succeeded", 2, { input: JSON.stringify(waitingInputs), output: inputOutput(waitingInputs) });
  await step(waitingRunId, "write", "waiting", 2);
  await step(waitingRunId, "out", "pending", 2);
  await database.insert("Approval", {
    id: pendingApprovalId,
    runId: waitingRunId,
    nodeId: "write",
    key: "write:0",
    kind: "write",
    tool: "write_file",
    arguments: JSON.stringify({ path: "note.txt", content: waitingInputs.text }),
    preview: `+${waitingInputs.text}`,
    status: "pending",
    createdAt: at(2),
  });

  // A run that used the secret.
  const rows = { rows: [{ notes: 1 }], rowCount: 1 };
  const queryRunId = await runRow(query.id, query.versionIds[0]!, "succeeded", {}, 19, rows, [
    { type: "run-started", nodeId: null, payload: { inputs: {} } },
    { type: "node-started", nodeId: "in", payload: { kind: "input", attempt: 1 } },
    { type: "node-succeeded", nodeId: "in", payload: { output: { content: "{}", data: {} }, durationMs: 1 } },
    { type: "node-started", nodeId: "db", payload: { kind: "tool", attempt: 1, tool: "sql", operation: "query" } },
    { type: "node-succeeded", nodeId: "db", payload: { output: { content: "1 row", data: rows }, durationMs: 9 } },
    { type: "run-succeeded", nodeId: null, payload: { output: rows } },
  ]);
  await step(queryRunId, "in", "succeeded", 19, { input: "{}", output: inputOutput({}) });
  await step(queryRunId, "db", "succeeded", 19, { output: JSON.stringify({ content: "1 row", data: rows }) });

  await database.insert("Grant", { id: newId(), workflowId: note.id, root: folders.notes, pattern: "*.txt", createdBy: "Ada", createdAt: at(29) });
  await database.insert("WorkflowPin", { id: newId(), workflowId: query.id, nodeId: "in", output: JSON.stringify({ content: "{}", data: {} }), fromRunId: queryRunId, pinnedAt: at(18) });
  await database.insert("RetentionPolicy", { id: newId(), workflowId: query.id, keepDays: null, keepLast: 500, keepFailedDays: null, updatedAt: at(18), updatedBy: "Ada" });
  const mcpServerId = newId();
  await database.insert("McpServer", {
    id: mcpServerId,
    name: "Docs search",
    transport: "http",
    enabled: false,
    url: "http://127.0.0.1:9/mcp",
    headers: "{}",
    createdAt: at(25),
    updatedAt: at(25),
    maxCallSeconds: 30,
  });

  // The security log and a browser signed in with the one password, as they were kept then.
  for (const [index, action] of PRE_PEOPLE_AUDIT_ACTIONS.filter((each) => each !== "workflow-published").entries()) {
    await database.insert("AuditEntry", { id: newId(now - (40 - index) * HOUR), at: at(40 - index), actor: "Ada", action, detail: JSON.stringify({ with: "password" }), clientAddress: "127.0.0.1" });
  }
  await database.insert("AuditEntry", { id: newId(now - 10 * HOUR), at: at(10), actor: "Ada", action: "workflow-published", target: hook.id, detail: JSON.stringify({ workflow: "Incoming hook", version: 1 }), clientAddress: "127.0.0.1" });
  const sessionSecret = randomBytes(32).toString("base64url");
  await database.insert("StudioSession", {
    id: sessionIdOf(sessionSecret),
    person: "Ada",
    method: "password",
    clientAddress: "127.0.0.1",
    createdAt: at(3),
    authenticatedAt: at(3),
    lastSeenAt: at(1),
    expiresAt: new Date(now + 24 * HOUR),
  });

  return {
    workflows: { note: note.id, query: query.id, hook: hook.id },
    decidedRunId,
    decidedApprovalId,
    waitingRunId,
    pendingApprovalId,
    noteFolder: folders.notes,
    queryRunId,
    secretName,
    notesDatabase,
    hookPath,
    mcpServerId,
    sessionCookie: `studio_session=${sessionSecret}`,
    sessionId: sessionIdOf(sessionSecret),
  };
}
