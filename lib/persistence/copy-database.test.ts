import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { COPY_BATCH, CONFIGURATION_TABLES, copyStudioData, HISTORY_TABLES, NOT_COPIED_TABLES, TargetNotEmptyError, type CopiedTable } from "./copy-database";
import { openDatabase, type StudioDatabase } from "./database";
import { Prisma } from "./generated/sqlite/client";
import { SecretKeyMismatchError } from "./errors";
import { SECRET_KEY_CHECK, openSecretBox } from "./secret-key";
import { createSecret, resolveSecret } from "./secret-store";
import { createEmptyPostgresDatabase, dropPostgresDatabase, openTempDatabase, type TempDatabase } from "./temp-database";
import { createWorkflow, saveWorkflow } from "./workflow-store";

/** `copyStudioData` and `npm run db:copy`, on real databases: SQLite → PostgreSQL → SQLite, every row as it was. */

const REPO_ROOT = path.resolve(import.meta.dirname, "../..");
const TSX_CLI = path.join(REPO_ROOT, "node_modules/tsx/dist/cli.mjs");
const ALL_TABLES: CopiedTable[] = [...CONFIGURATION_TABLES, ...HISTORY_TABLES];
const KEY_ORDER: Record<CopiedTable, string> = { secret: "name", meta: "key", webhookEndpoint: "path" } as Record<CopiedTable, string>;
/** More events than one batch holds, so the copy goes through several. */
const EVENTS = COPY_BATCH * 2 + 3;
/** Whole results kept for a step, in parts: more than one batch of that table. */
const KEPT_PARTS = 19;
const at = (iso: string) => new Date(iso);

const temps: TempDatabase[] = [];
async function temp(provider: "sqlite" | "postgresql" = "sqlite"): Promise<TempDatabase> {
  const opened = await openTempDatabase({ provider });
  temps.push(opened);
  return opened;
}

let source: TempDatabase;
let sourceRows: Record<CopiedTable, unknown[]>;

beforeAll(async () => {
  // The store reads the key the way the studio does; the copy itself never needs it.
  vi.stubEnv("STUDIO_SECRET_KEY", randomBytes(32).toString("base64"));
  source = await temp();
  await fill(source.database);
  sourceRows = await everyRow(source.database);
});

afterAll(async () => {
  for (const opened of temps) await opened.close();
  vi.unstubAllEnvs();
});

/** A studio with something in every table copied: people with an invitation, a token, a share and webhooks, two versions, a pin, retention settings, a grant, a secret, an MCP server, a finished run with all its parts, one waiting. */
async function fill(database: StudioDatabase): Promise<void> {
  const definition = (output: string) => ({
    name: "Summarise",
    description: "Summarise a topic – naïve, 東京",
    nodes: [
      { id: "start", kind: "input" as const, fields: [{ name: "topic" }] },
      { id: "finish", kind: "output" as const, value: output },
    ],
    edges: [{ id: "e1", source: "start", target: "finish" }],
  });
  await database.person.createMany({
    data: [
      { id: "person-ada", login: "ada@example.com", displayName: "Ada", role: "owner", passwordHash: "scrypt$1$salt$hash", createdAt: at("2026-01-01T00:00:00.5Z"), notifyInBrowser: false },
      { id: "person-bo", login: "bo", displayName: "Bo Ørsted", role: "approver", createdBy: "Ada", active: false, deactivatedAt: at("2026-01-09T00:00:00Z") },
    ],
  });
  await database.invitation.create({ data: { id: "invitation-1", secretHash: "e".repeat(64), role: "editor", note: "for Cy", invitedBy: "Ada", expiresAt: at("2026-03-01T00:00:00Z") } });
  await database.personalAccessToken.create({
    data: { id: "token-1", personId: "person-ada", name: "CI", tokenHash: "f".repeat(64), scopes: JSON.stringify(["run:read"]), expiresAt: at("2026-06-01T00:00:00Z") },
  });
  const workflow = await createWorkflow(definition("{{ inputs.topic }}"), database);
  await database.workflow.update({ where: { id: workflow.id }, data: { ownerId: "person-ada" } });
  await database.workflowShare.create({ data: { id: "share-1", workflowId: workflow.id, personId: "person-bo", role: "approver", createdBy: "Ada" } });
  await database.notificationWebhook.createMany({
    data: [
      { id: "hook-workflow", workflowId: workflow.id, url: "https://hooks.example.com/studio", format: "slack", secretCiphertext: "sealed-1" },
      { id: "hook-person", personId: "person-ada", url: "https://hooks.example.com/ada", format: "json", secretCiphertext: "sealed-2" },
    ],
  });
  await saveWorkflow(workflow.id, definition("Topic: {{ inputs.topic }}"), {}, database);
  const version = await database.workflowVersion.findFirstOrThrow({ where: { workflowId: workflow.id, version: 2 } });
  await database.grant.create({
    data: { id: "grant-1", workflowId: workflow.id, root: "/srv/work", pattern: "reports/**", createdBy: "ada", createdAt: at("2026-01-02T03:04:05.678Z") },
  });
  await createSecret({ name: "API_KEY", value: "sk-live-123", description: "Model key", tool: "http_request" }, database);
  await database.meta.create({ data: { key: "examples.seeded", value: "1" } });
  await database.mcpServer.create({
    data: {
      id: "mcp-1",
      name: "files",
      transport: "stdio",
      enabled: false,
      toolPrefix: "fs",
      command: "npx",
      args: JSON.stringify(["-y", "@modelcontextprotocol/server-filesystem", "/srv"]),
      env: JSON.stringify({ TOKEN: "${API_KEY}" }),
      cwd: "/srv",
      url: null,
      headers: "{}",
      createdAt: at("2026-01-03T00:00:00.001Z"),
      updatedAt: at("2026-01-04T00:00:00.999Z"),
      commandConfirmedAt: at("2026-01-04T00:00:01.5Z"),
      commandConfirmedBy: "ada",
      commandDigest: "d".repeat(64),
      maxCallSeconds: 120,
      toolNames: JSON.stringify({ read_file: "read_file" }),
    },
  });
  const runFields = { workflowId: workflow.id, versionId: version.id, inputs: JSON.stringify({ topic: "tides" }) };
  await database.run.create({
    data: {
      id: "run-done",
      ...runFields,
      status: "succeeded",
      output: JSON.stringify("Topic: tides"),
      error: null,
      lastSeq: EVENTS,
      createdAt: at("2026-02-01T10:00:00.123Z"),
      startedAt: at("2026-02-01T10:00:00.456Z"),
      finishedAt: at("2026-02-01T10:00:09.789Z"),
      cancelRequestedAt: at("2026-02-01T10:00:05.000Z"),
      cancelRequestedBy: "grace",
    },
  });
  await database.webhookEndpoint.create({
    data: { path: "github/push", hookId: "hook-id-0123456789ab", workflowId: workflow.id, nodeId: "hook", versionId: version.id, rejections: 3, lastRejectedAt: at("2026-02-01T09:00:00.5Z"), createdAt: at("2026-01-05T00:00:00Z") },
  });
  await database.scheduleFiring.create({
    data: { id: "firing-1", workflowId: workflow.id, nodeId: "tick", slot: at("2026-02-01T09:30:00Z"), outcome: "skipped", missedSlots: 0, createdAt: at("2026-02-01T09:30:00.2Z") },
  });
  await database.workflowPin.create({
    data: { id: "pin-1", workflowId: workflow.id, nodeId: "start", output: JSON.stringify({ content: "pinned", data: { topic: "tides" } }), fromRunId: "run-done", pinnedAt: at("2026-02-01T11:00:00.5Z") },
  });
  await database.evaluationDataset.create({
    data: { id: "dataset-1", workflowId: workflow.id, name: "Tides", source: "csv", rowCount: 2, expectedCount: 1, createdBy: "ada", createdAt: at("2026-02-01T11:30:00.25Z") },
  });
  await database.evaluationDatasetRow.createMany({
    data: [
      { id: "row-1", datasetId: "dataset-1", position: 1, inputs: JSON.stringify({ topic: "tides" }), expected: JSON.stringify("High at noon") },
      { id: "row-2", datasetId: "dataset-1", position: 2, inputs: JSON.stringify({ topic: "moon" }), expected: null, sourceRunId: "run-done" },
    ],
  });
  // The studio's retention setting and the workflow's own.
  await database.retentionPolicy.create({ data: { id: "studio", keepDays: 90, keepLast: null, keepFailedDays: 180, updatedBy: "ada", updatedAt: at("2026-01-06T00:00:00.25Z") } });
  await database.retentionPolicy.create({ data: { id: `workflow:${workflow.id}`, workflowId: workflow.id, keepLast: 10, updatedAt: at("2026-01-06T00:00:01Z") } });
  await database.run.update({ where: { id: "run-done" }, data: { trigger: "webhook", triggerNodeId: "hook", triggerDetail: JSON.stringify({ deliveryId: "delivery-7", request: "POST /hooks/github/push" }) } });
  await database.webhookDelivery.create({
    data: { id: "delivery-1", workflowId: workflow.id, hookId: "hook-id-0123456789ab", idempotencyKey: "delivery-7", runId: "run-done", createdAt: at("2026-02-01T10:00:00.100Z") },
  });
  await database.run.create({ data: { id: "run-waiting", ...runFields, status: "awaiting_input", lastSeq: 0, createdAt: at("2026-02-02T00:00:00Z") } });
  await database.run.create({ data: { id: "run-running", ...runFields, status: "running", lastSeq: 0, createdAt: at("2026-02-03T00:00:00Z") } });
  await database.step.createMany({
    data: [
      { id: "step-1", runId: "run-done", nodeId: "start", status: "succeeded", input: "{}", output: JSON.stringify({ data: { topic: "tides" } }), attempt: 1, startedAt: at("2026-02-01T10:00:01.001Z"), finishedAt: at("2026-02-01T10:00:02.002Z") },
      { id: "step-2", runId: "run-done", nodeId: "finish", status: "failed", error: "boom", attempt: 2 },
    ],
  });
  await database.runEvent.createMany({
    data: Array.from({ length: EVENTS }, (_, index) => ({
      runId: "run-done",
      seq: index + 1,
      type: index % 2 ? "step.finished" : "step.started",
      nodeId: index % 3 ? "start" : null,
      payload: JSON.stringify({ index, text: "ünïcode \u2028 \\u0000" }),
      createdAt: new Date(Date.parse("2026-02-01T10:00:00.000Z") + index),
    })),
  });
  await database.approval.create({
    data: {
      id: "approval-1",
      runId: "run-done",
      nodeId: "finish",
      key: "finish:call-1",
      kind: "write",
      tool: "write_file",
      operation: "write",
      arguments: JSON.stringify({ path: "a.txt" }),
      preview: "+ hello",
      effect: JSON.stringify({ kind: "write", path: "a.txt" }),
      digest: "abc",
      status: "approved",
      decision: "once",
      feedback: "fine",
      decidedBy: "grace",
      decidedAt: at("2026-02-01T10:00:03.333Z"),
      createdAt: at("2026-02-01T10:00:02.222Z"),
    },
  });
  await database.approvalVote.create({ data: { id: "vote-1", approvalId: "approval-1", personId: "person-bo", name: "Bo Ørsted", approve: true, feedback: null, createdAt: at("2026-02-01T10:00:03.000Z") } });
  await database.approvalNotification.create({
    data: { id: "notification-1", approvalId: "approval-1", personId: "person-bo", round: "requested", channel: "email", address: "bo@example.com", status: "sent", attempts: 1, sentAt: at("2026-02-01T10:00:02.5Z") },
  });
  await database.agentCheckpoint.create({
    data: { id: "checkpoint-1", runId: "run-done", nodeId: "finish", turn: 3, messages: JSON.stringify([{ role: "user", content: "hi" }]), createdAt: at("2026-02-01T10:00:04.444Z") },
  });
  // More parts than one batch of its table (8): the copy pages through them.
  for (let part = 0; part < KEPT_PARTS; part += 1) {
    await database.keptOutputPart.create({ data: { id: `kept-${String(part).padStart(2, "0")}`, runId: "run-done", nodeId: "finish", part, bytes: Buffer.from(`part ${part} é\u0000`) } });
  }
  await database.evaluationRun.create({
    data: { id: "evaluation-1", workflowId: workflow.id, versionId: version.id, version: 2, datasetId: "dataset-1", datasetName: "Tides", scorers: JSON.stringify([{ kind: "exact", name: "same", caseSensitive: true, trim: true }]), concurrency: 2, status: "finished", rowCount: 1, createdAt: at("2026-02-01T12:00:00.5Z"), finishedAt: at("2026-02-01T12:00:03Z"), startedById: "ada", startedByLabel: "Ada" },
  });
  await database.evaluationResult.create({
    data: { id: "result-1", evaluationId: "evaluation-1", position: 1, inputs: JSON.stringify({ topic: "tides" }), expected: JSON.stringify("High at noon"), status: "scored", runId: "run-done", runStatus: "succeeded", output: JSON.stringify("High at noon"), verdicts: JSON.stringify([{ score: 1, passed: true, reason: "the output is the expected text" }]), durationMs: 1200, failedSteps: 0, startedAt: at("2026-02-01T12:00:01Z"), finishedAt: at("2026-02-01T12:00:02.25Z") },
  });
  await database.runModelUsage.create({ data: { id: "usage-1", runId: "run-done", provider: "openai", model: "gpt-4.1-mini", inputTokens: 1200, cachedInputTokens: 1000, outputTokens: 85, calls: 2 } });
  await database.modelPrice.create({ data: { id: "price-1", provider: "openai", model: "gpt-4.1-mini", inputPerMillion: "0.4", cachedInputPerMillion: "0.1", outputPerMillion: "1.6", updatedBy: "ada", updatedAt: at("2026-01-06T00:00:02Z") } });
  await database.auditEntry.create({
    data: { id: "audit-1", at: at("2026-02-01T09:59:59.999Z"), actor: "ada", action: "secret.create", target: "API_KEY", detail: "{}", clientAddress: "127.0.0.1" },
  });
  await database.studioSession.create({
    data: { id: "session-1", person: "ada", method: "token", authenticatedAt: new Date(), lastSeenAt: new Date(), expiresAt: new Date(Date.now() + 3_600_000) },
  });
}

/** Every row of every copied table, in key order, each Date as its time in milliseconds. */
async function everyRow(database: StudioDatabase): Promise<Record<CopiedTable, unknown[]>> {
  const rows = {} as Record<CopiedTable, unknown[]>;
  for (const table of ALL_TABLES) {
    const model = (database as unknown as Record<string, { findMany(args: unknown): Promise<Record<string, unknown>[]> }>)[table]!;
    const found = await model.findMany({ orderBy: { [KEY_ORDER[table] ?? "id"]: "asc" } });
    rows[table] = found.map((row) => Object.fromEntries(Object.entries(row).map(([name, value]) => [name, value instanceof Date ? { time: value.getTime() } : value])));
  }
  return rows;
}

async function expectSameRows(database: StudioDatabase, tables: readonly CopiedTable[] = ALL_TABLES): Promise<void> {
  const copied = await everyRow(database);
  for (const table of tables) expect(copied[table], table).toEqual(sourceRows[table]);
}

describe("copyStudioData", () => {
  it("knows every table of the schema: copied with the configuration, with the history, or never", () => {
    const models = Object.values(Prisma.ModelName).map((model) => model.charAt(0).toLowerCase() + model.slice(1));
    expect([...ALL_TABLES, ...NOT_COPIED_TABLES].sort()).toEqual(models.sort());
  });

  it("copies everything SQLite → PostgreSQL → SQLite, row for row; the secret opens with the same key only", async () => {
    const postgres = await temp("postgresql");
    const report = await copyStudioData(source.database, postgres.database, { runs: true });
    expect(report.counts).toEqual({
      person: 2,
      invitation: 1,
      personalAccessToken: 1,
      workflowShare: 1,
      notificationWebhook: 2,
      approvalVote: 1,
      approvalNotification: 1,
      workflow: 1,
      workflowVersion: 2,
      webhookEndpoint: 1,
      scheduleFiring: 1,
      workflowPin: 1,
      evaluationDataset: 1,
      evaluationDatasetRow: 2,
      retentionPolicy: 2,
      modelPrice: 1,
      grant: 1,
      secret: 1,
      meta: 2,
      mcpServer: 1,
      run: 3,
      step: 2,
      runEvent: EVENTS,
      approval: 1,
      agentCheckpoint: 1,
      keptOutputPart: KEPT_PARTS,
      runModelUsage: 1,
      evaluationRun: 1,
      evaluationResult: 1,
      webhookDelivery: 1,
      auditEntry: 1,
    });
    expect(report.unfinishedRuns).toEqual({ running: 1, awaiting_input: 1 });
    expect(report.runsNotCopied).toBe(0);
    await expectSameRows(postgres.database);
    expect(await postgres.database.studioSession.count()).toBe(0);
    expect(await postgres.database.meta.findUnique({ where: { key: SECRET_KEY_CHECK } })).not.toBeNull();

    // Same key: the secret opens. Another key: refused, as on the source.
    expect(await resolveSecret("API_KEY", postgres.database)).toBe("sk-live-123");
    await expect(openSecretBox(postgres.database, { environment: { STUDIO_SECRET_KEY: randomBytes(32).toString("base64") } })).rejects.toSatisfy(
      SecretKeyMismatchError.isInstance,
    );
    // The id sequence was moved past the copied ids: the next event gets a fresh one.
    const next = await postgres.database.runEvent.create({ data: { runId: "run-waiting", seq: 1, type: "run.started", payload: "{}" } });
    expect(next.id).toBe(EVENTS + 1);
    await postgres.database.runEvent.delete({ where: { id: next.id } });

    const back = await temp("sqlite");
    await copyStudioData(postgres.database, back.database, { runs: true });
    await expectSameRows(back.database);
    expect(await resolveSecret("API_KEY", back.database)).toBe("sk-live-123");
  });

  it("leaves the history behind unless asked", async () => {
    const target = await temp("postgresql");
    const report = await copyStudioData(source.database, target.database, { runs: false });
    expect(report.runsNotCopied).toBe(3);
    expect(report.unfinishedRuns).toEqual({ running: 0, awaiting_input: 0 });
    for (const table of HISTORY_TABLES) expect(report.counts[table], table).toBe(0);
    await expectSameRows(target.database, CONFIGURATION_TABLES);
    expect(await target.database.run.count()).toBe(0);
    expect(await target.database.auditEntry.count()).toBe(0);
  });

  it("refuses a target that holds data, and writes nothing", async () => {
    const target = await temp("sqlite");
    await target.database.meta.create({ data: { key: SECRET_KEY_CHECK, value: "another key's check" } });
    await target.database.mcpServer.create({ data: { id: "theirs", name: "theirs", transport: "http", url: "https://example.com/mcp" } });
    const error = await copyStudioData(source.database, target.database, { runs: true }).catch((caught: unknown) => caught);
    expect(TargetNotEmptyError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/not empty \(1 mcpServer row, 1 meta row\).*nothing was copied/);
    expect(await target.database.workflow.count()).toBe(0);
    expect(await target.database.secret.count()).toBe(0);
    expect(await target.database.meta.findMany()).toEqual([{ key: SECRET_KEY_CHECK, value: "another key's check" }]);
  });

  it("is all or nothing: a failure at the last table leaves the target as it was", async () => {
    const target = await temp("postgresql");
    // A clash the emptiness check does not look for: the security log is copied last.
    await target.database.auditEntry.create({ data: { id: "audit-1", actor: "someone", action: "sign-in" } });
    await expect(copyStudioData(source.database, target.database, { runs: true })).rejects.toThrow();
    for (const table of ALL_TABLES.filter((table) => table !== "auditEntry")) {
      const model = (target.database as unknown as Record<string, { count(): Promise<number> }>)[table]!;
      expect(await model.count(), table).toBe(0);
    }
    expect(await target.database.auditEntry.count()).toBe(1);
  });
});

function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const environment: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ["STUDIO_DATA_DIR", "DATABASE_URL", "STUDIO_SECRET_KEY"]) delete environment[name];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [TSX_CLI, "scripts/copy-database.ts", ...args], { cwd: REPO_ROOT, env: environment, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("npm run db:copy", () => {
  it("migrates an empty PostgreSQL database, copies into it, and says what it copied (password masked)", async () => {
    const url = await createEmptyPostgresDatabase();
    try {
      // The test server trusts local connections: a password in the URL is accepted, and must never be printed.
      const withPassword = new URL(url);
      if (!withPassword.password) withPassword.password = "hunter2";
      const result = await runCli(["--from", source.url, "--to", withPassword.toString(), "--runs"]);
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
      expect(result.stdout).not.toContain(withPassword.password);
      expect(result.stdout).toContain(":***@");
      expect(result.stdout).toMatch(new RegExp(`\\s${EVENTS} run events`));
      expect(result.stdout).toMatch(/\s2 workflow versions/);
      expect(result.stdout).toMatch(/\s1 secrets \(encrypted\)/);
      expect(result.stdout).toContain("1 were running and 1 awaiting input");
      expect(result.stdout).toContain("the running ones were queued (1)");
      expect(result.stdout).toContain("same secret key");
      const target = openDatabase(url);
      try {
        await expectSameRows(target);
        expect(await resolveSecret("API_KEY", target)).toBe("sk-live-123");
        // On PostgreSQL a run is driven when a worker takes its drive: the one copied while running is asked for, as a new run would be.
        expect(await target.runDrive.findMany({ select: { runId: true, requested: true, takenBy: true } })).toEqual([{ runId: "run-running", requested: true, takenBy: null }]);
      } finally {
        await target.$disconnect();
      }
    } finally {
      await dropPostgresDatabase(url);
    }
  });

  it.each([
    [["--from", "file:/tmp/a.db"], /--to <url> is required/],
    [["--from", "mysql://h/db", "--to", "file:/tmp/b.db"], /--from must be a file: URL \(SQLite\) or a postgresql:\/\/ URL/],
    [["--from", "postgresql://u:secret@h/db", "--to", "postgresql://u:other@h:5432/db"], /name the same database \(postgresql:\/\/u:\*\*\*@h\/db\)/],
    [["--from", "file:/nonexistent/studio.db", "--to", "file:/tmp/c.db"], /There is no SQLite file at \/nonexistent\/studio\.db/],
    [["--from", "file:/tmp/a.db", "--to", "file:/tmp/b.db", "--merge"], /Unknown argument "--merge"/],
  ])("exits 2 with the usage for bad arguments: %j", async (args, message) => {
    const result = await runCli(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toContain("Usage: npm run db:copy -- --from <url> --to <url> [--runs]");
    expect(result.stderr).not.toContain("secret@");
    expect(result.stdout).toBe("");
  });
});
