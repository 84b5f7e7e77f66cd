import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmptyPostgresDatabase, dropPostgresDatabase } from "@/lib/persistence/temp-database";
import { testRunFolder } from "../support/test-run";
import { ApiClient, type Json } from "./api-client";
import { removeWorkFolders, workFolder } from "./fixtures";
import { rawRequest } from "./raw-http";
import { startStudioServer, testDatabaseProvider, type StudioServer } from "./studio-server";
import { fillOldStudio, keysOfEveryTable, migrateBeforePeople, openRawDatabase, PEOPLE_MIGRATION, PRE_PEOPLE_AUDIT_ACTIONS, type OldStudio, type RawDatabase } from "./upgrade-fixtures";

/**
 * The upgrade to people and roles, as a studio of one identity takes it: its
 * database made by the migrations before people existed and filled as such a
 * studio left it (the access token, the one STUDIO_PASSWORD signed in under a
 * typed name), then the studio of today started on it. It starts; the owner,
 * with the token, the old password or a browser signed in before, sees and
 * owns everything; nothing is lost; the run that waited on a decision goes on
 * when the owner decides, and the secret still opens.
 */

const PASSWORD = "the-one-studio-password";
const provider = testDatabaseProvider();

let server: StudioServer;
let dataDir: string;
let databaseUrl: string;
let raw: RawDatabase;
let old: OldStudio;
let oldTables: string[];
let keysBefore: Record<string, string[]>;
let owner: ApiClient;

beforeAll(async () => {
  dataDir = testRunFolder("upgrade-data");
  databaseUrl = provider === "postgresql" ? await createEmptyPostgresDatabase() : `file:${path.join(dataDir, "studio.db")}`;
  const applied = await migrateBeforePeople(provider, databaseUrl);
  expect(applied.length).toBeGreaterThan(5);
  raw = await openRawDatabase(provider, databaseUrl);
  oldTables = await raw.tables();
  expect(oldTables).not.toContain("Person");
  const work = workFolder();
  const notes = new Database(path.join(work, "notes.db"));
  notes.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT); INSERT INTO notes (text) VALUES ('first'), ('second'), ('third');");
  notes.close();
  old = await fillOldStudio(raw, dataDir, { notes: workFolder(), work });
  keysBefore = await keysOfEveryTable(raw, oldTables);
  server = await startStudioServer({ dataDir, env: { DATABASE_URL: databaseUrl, STUDIO_PASSWORD: PASSWORD } });
  owner = server.client();
}, 240_000);

afterAll(async () => {
  await server?.stop();
  await raw?.close();
  if (provider === "postgresql" && databaseUrl) await dropPostgresDatabase(databaseUrl);
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  removeWorkFolders();
}, 60_000);

describe(`a studio of one identity upgraded to people and roles (${provider})`, () => {
  it("starts, applies the migrations from people on, and loses no row of any table it had", async () => {
    const migrations = await raw.query<{ name: string }>(`SELECT "migration_name" AS "name" FROM "_prisma_migrations" WHERE "finished_at" IS NOT NULL`);
    expect(migrations.map((row) => row.name)).toContain(PEOPLE_MIGRATION);
    expect(await raw.tables()).toEqual(expect.arrayContaining([...oldTables, "Person", "WorkflowShare"]));
    expect(server.logs()).toContain("3 workflow(s) made with no owner are now the owner's");
    expect(server.logs()).not.toMatch(/could not|error/i);
    const keysAfter = await keysOfEveryTable(raw, oldTables);
    for (const table of oldTables) {
      // The resumed run adds its events; every other table holds exactly what it held.
      if (table === "RunEvent") expect(keysAfter[table], table).toEqual(expect.arrayContaining(keysBefore[table]!));
      else expect(keysAfter[table], table).toEqual(keysBefore[table]);
    }
  });

  it("makes the owner, whose are the token, the old password, the old browser session and every workflow", async () => {
    const me = (await owner.expect(200, "GET", "/api/me")).person;
    expect(me).toMatchObject({ role: "owner" });
    const people = (await owner.expect(200, "GET", "/api/people")).people as Json[];
    expect(people).toEqual([expect.objectContaining({ id: me.id, role: "owner" })]);

    const signedIn = await new ApiClient(server.url).post("/api/auth/login", { name: "Ada", password: PASSWORD });
    expect(signedIn.status, signedIn.text).toBe(200);
    const ada = new ApiClient(server.url, { cookie: signedIn.headers.get("set-cookie")!.split(";")[0]! });
    const browser = new ApiClient(server.url, { cookie: old.sessionCookie });
    for (const client of [ada, browser]) {
      expect((await client.expect(200, "GET", "/api/me")).person).toMatchObject({ id: me.id, role: "owner" });
    }

    const owners = await raw.query<{ id: string; ownerId: string | null }>(`SELECT "id", "ownerId" FROM "Workflow"`);
    expect(owners).toHaveLength(3);
    for (const row of owners) expect(row.ownerId, row.id).toBe(me.id);

    for (const client of [owner, ada, browser]) {
      const workflows = await client.everyRow("workflows");
      expect(workflows.map((workflow) => workflow.id).sort()).toEqual(Object.values(old.workflows).sort());
      const runs = await client.everyRow("runs");
      expect(runs.map((run) => run.id).sort()).toEqual([old.decidedRunId, old.waitingRunId, old.queryRunId].sort());
      expect((await client.pendingApprovals()).map((approval) => approval.id)).toEqual([old.pendingApprovalId]);
      expect((await client.expect(200, "GET", "/api/secrets")).secrets).toEqual([expect.objectContaining({ name: old.secretName, tool: "sql", workflows: null })]);
      expect(((await client.expect(200, "GET", "/api/mcp-servers")).servers as Json[]).map((each) => [each.id, each.name])).toEqual([[old.mcpServerId, "Docs search"]]);
    }
    // The owner owns them: they may share one, as only a workflow's owner (or an admin) may.
    expect((await owner.expect(200, "GET", `/api/workflows/${old.workflows.note}/shares`)).shares).toEqual([]);
    const versions = (await owner.expect(200, "GET", `/api/workflows/${old.workflows.note}/versions`)).versions as Json[];
    expect(versions).toHaveLength(2);
  });

  it("keeps what was decided before people as a decider with a name and no person, and reads the old events", async () => {
    const run = await owner.getRun(old.decidedRunId);
    expect(run.status).toBe("succeeded");
    expect(run.steps.map((step: Json) => step.status)).toEqual(["succeeded", "succeeded", "succeeded"]);
    expect(run.approvals).toEqual([expect.objectContaining({ id: old.decidedApprovalId, status: "approved", decidedBy: { personId: null, name: "Ada" } })]);
    expect(run.startedBy).toBeNull();
    const events = await owner.events(old.decidedRunId);
    expect(events).toHaveLength(11);
    expect(events.find((event) => event.type === "approval-decided")?.payload.approval.decidedBy).toEqual({ personId: null, name: "Ada" });
  });

  it("lets the owner decide the approval that was pending, and the waiting run finishes", async () => {
    const signedIn = await new ApiClient(server.url).post("/api/auth/login", { name: "Ada", password: PASSWORD });
    const ada = new ApiClient(server.url, { cookie: signedIn.headers.get("set-cookie")!.split(";")[0]! });
    const me = (await ada.expect(200, "GET", "/api/me")).person;
    const decided = (await ada.expect(200, "POST", `/api/approvals/${old.pendingApprovalId}`, { decision: "once" })).approval;
    expect(decided).toMatchObject({ status: "approved", decidedBy: { personId: me.id, name: "Ada" } });
    const finished = await ada.waitForRun(old.waitingRunId);
    expect(finished.status, finished.error ?? "").toBe("succeeded");
    expect(readFileSync(path.join(old.noteFolder, "note.txt"), "utf8")).toBe("written after the upgrade");
    const log = (await ada.expect(200, "GET", "/api/audit?action=approval-decided")).entries as Json[];
    expect(log).toEqual([expect.objectContaining({ actor: "Ada", actorId: me.id, target: old.pendingApprovalId })]);
    // The security log kept what it said before people too, every kind of entry of then, with no person.
    const older = (await ada.expect(200, "GET", "/api/audit?action=workflow-published")).entries as Json[];
    expect(older).toEqual([expect.objectContaining({ actor: "Ada", actorId: null, target: old.workflows.hook })]);
    const everything = (await ada.expect(200, "GET", "/api/audit?limit=200")).entries as Json[];
    const before = everything.filter((entry) => entry.actorId === null && entry.actor === "Ada");
    expect(before.map((entry) => entry.action).sort()).toEqual([...PRE_PEOPLE_AUDIT_ACTIONS].sort());
  });

  it("still opens the secret sealed before: a run that uses it succeeds", async () => {
    const run = await owner.startRun(old.workflows.query);
    const finished = await owner.waitForRun(run.id);
    expect(finished.status, finished.error ?? "").toBe("succeeded");
    const step = finished.steps.find((each: Json) => each.nodeId === "db");
    expect(step.output.data.rows).toEqual([{ notes: 3 }]);
    expect(finished.startedBy).toEqual({ personId: (await owner.expect(200, "GET", "/api/me")).person.id, name: "access token" });
  });

  it("still answers the webhook published before", async () => {
    const delivered = await rawRequest(`${server.url}/hooks/${old.hookPath}`, { method: "POST", body: { name: "hook" }, headers: {} });
    expect(delivered.status, delivered.text).toBeLessThan(300);
    const runs = await owner.everyRow("runs", `workflowId=${old.workflows.hook}`);
    expect(runs).toHaveLength(1);
    expect((await owner.waitForRun(runs[0].id as string)).status).toBe("succeeded");
  });

  it("lists the browser signed in before people among the owner's, and signing out the others ends it", async () => {
    const signedIn = await new ApiClient(server.url).post("/api/auth/login", { name: "Ada", password: PASSWORD });
    const ada = new ApiClient(server.url, { cookie: signedIn.headers.get("set-cookie")!.split(";")[0]! });
    const browser = new ApiClient(server.url, { cookie: old.sessionCookie });
    const sessions = (await ada.expect(200, "GET", "/api/auth/sessions")).sessions as Json[];
    expect(sessions).toContainEqual(expect.objectContaining({ id: old.sessionId.slice(0, 12), person: "Ada", method: "password", current: false }));
    await browser.expect(200, "GET", "/api/me");
    await ada.expect(200, "DELETE", "/api/auth/sessions");
    expect((await browser.get("/api/me")).status).toBe(401);
    await ada.expect(200, "GET", "/api/me");
  });
});
