import { mkdtempSync, realpathSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allTools, secretsFromRecord, ToolPool } from "@/lib/tools";
import { createWorkflow } from "@/lib/persistence";
import { createRun, getRunDetail, readEvents } from "@/lib/persistence/run-queries";
import { DatabaseFullOutputs } from "@/lib/persistence/kept-outputs";
import { deleteRun } from "@/lib/persistence/run-deletion";
import { PrismaRunStore } from "@/lib/persistence/run-store";
import { openTempDatabase, type TempDatabase } from "@/lib/persistence/temp-database";
import type { StepOutput } from "@/lib/contracts/run";
import { MAX_STORED_RESULT_BYTES } from "@/lib/workflow/bound-output";
import type { WorkflowDefinitionInput } from "@/lib/workflow/definition";
import { RunEventBus } from "@/lib/workflow/event-bus";
import { RunEngine, type FullOutputKeeper } from "@/lib/workflow/run-engine";
import type { RunEvent } from "@/lib/workflow/run-types";

// Issue 32: `SELECT id, hex(zeroblob(1000)) AS c1, … c5 FROM t` with a limit of 1,000 stored its whole result in
// the step (each row twice: rows and rowValues, about 20 MB), and with wider rows the run page never loaded.

const ROWS = 1_000;
const WIDE_QUERY = `SELECT id, ${[1, 2, 3, 4, 5].map((column) => `hex(zeroblob(1000)) AS c${column}`).join(", ")} FROM t ORDER BY id`;

let temp: TempDatabase;
let workRoot: string;
let bus: RunEventBus;
let store: PrismaRunStore;
let engine: RunEngine;

function newEngine(fullOutputs?: FullOutputKeeper): RunEngine {
  return new RunEngine({
    store,
    bus,
    pool: () => new ToolPool(allTools()),
    secrets: secretsFromRecord({ WIDE_DB: `sqlite://${path.join(workRoot, "wide.db")}` }),
    workingDirectory: workRoot,
    fullOutputs,
  });
}

beforeAll(async () => {
  temp = await openTempDatabase();
  workRoot = realpathSync(mkdtempSync(path.join(os.tmpdir(), "engine-stored-results-")));
  const wide = new Database(path.join(workRoot, "wide.db"));
  wide.exec(`CREATE TABLE t (id INTEGER PRIMARY KEY); WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < ${ROWS}) INSERT INTO t SELECT x FROM n;`);
  wide.close();
  bus = new RunEventBus();
  store = new PrismaRunStore(temp.database);
  engine = newEngine();
});

afterAll(async () => {
  await engine.idle();
  await temp.close();
});

/** The wide query, then (optionally) a write that waits for a person, then an output reading the query's rows through a template. */
function wideWorkflow(withApproval: boolean): WorkflowDefinitionInput {
  const write = { id: "write", kind: "tool" as const, tool: "write_file", settings: { root: workRoot }, arguments: { path: "first-id.txt", content: "first id: {{ nodes.db.data.rows[0].id }}" } };
  return {
    name: withApproval ? "wide query, then a wait" : "wide query",
    mode: withApproval ? "default" : "bypass",
    nodes: [
      { id: "in", kind: "input", fields: [] },
      { id: "db", kind: "tool", tool: "sql", operation: "query", arguments: { dsn: "${WIDE_DB}", sql: WIDE_QUERY, limit: ROWS } },
      ...(withApproval ? [write] : []),
      { id: "out", kind: "output", value: "{{ nodes.db.data.rows }}" },
    ],
    edges: [
      { id: "a", source: "in", target: "db" },
      ...(withApproval
        ? [
            { id: "b", source: "db", target: "write" },
            { id: "c", source: "write", target: "out" },
          ]
        : [{ id: "b", source: "db", target: "out" }]),
    ],
  };
}

/** Resolves with the first event of `type` of the run published from now on. */
function nextEvent<Type extends RunEvent["type"]>(runId: string, type: Type): Promise<Extract<RunEvent, { type: Type }>> {
  return new Promise((resolve) => {
    const unsubscribe = bus.subscribe(runId, (event) => {
      if (event.type === type) {
        unsubscribe();
        resolve(event as Extract<RunEvent, { type: Type }>);
      }
    });
  });
}

const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value), "utf8");

interface QueryData {
  rows: { id: number; c1: string }[];
  rowValues: unknown[][];
  rowCount: number;
}

/** The query step as stored, checked against the cap, with the true counts in its description. */
async function storedQueryStep(runId: string): Promise<{ output: StepOutput; data: QueryData }> {
  const detail = await getRunDetail(runId, temp.database);
  const output = detail.steps.find((step) => step.nodeId === "db")?.output;
  expect(output).toBeTruthy();
  const data = output!.data as QueryData;
  expect(bytes(output)).toBeLessThanOrEqual(MAX_STORED_RESULT_BYTES);
  // Each stored row whole and in order: the leading rows of the result.
  expect(data.rows.length).toBeGreaterThan(0);
  expect(data.rows.length).toBeLessThan(ROWS);
  expect(data.rows.map((row) => row.id)).toEqual(data.rows.map((_, index) => index + 1));
  expect(data.rows.every((row) => row.c1.length === 2_000)).toBe(true);
  expect(data.rowCount).toBe(ROWS);
  const truncated = output!.truncated!;
  // The true size: 1,000 rows of five 2,000-character columns, each row held twice.
  expect(truncated.totalBytes).toBeGreaterThan(2 * ROWS * 5 * 2_000);
  expect(truncated.lists).toEqual(
    expect.arrayContaining([
      { path: "data.rows", total: ROWS, stored: data.rows.length },
      { path: "data.rowValues", total: ROWS, stored: data.rowValues.length },
    ]),
  );
  expect(truncated.notice).toContain(`data.rows: the first ${data.rows.length.toLocaleString("en-US")} of 1,000 items`);
  expect(truncated.notice).toMatch(/^The result was 2\d\.\d MB, over the 1 MB a step stores; stored: \d+\.\d KB\./);
  return { output: output!, data };
}

describe("a step's stored result is bounded", () => {
  it("stores a wide SQL result within the cap, announces what it stores, and the next step's template reads the stored rows", async () => {
    const workflow = await createWorkflow(wideWorkflow(false), temp.database);
    const { runId } = await createRun(workflow.id, {}, {}, temp.database);
    await engine.start(runId);
    await engine.settled(runId);
    const detail = await getRunDetail(runId, temp.database);
    expect(detail.status, detail.error ?? "").toBe("succeeded");

    const { output, data } = await storedQueryStep(runId);
    // The event the run page and the stream read carries the same stored part.
    const events = await readEvents(runId, 0, 1000, temp.database);
    const succeeded = events.find((event) => event.type === "node-succeeded" && event.nodeId === "db");
    expect((succeeded?.payload as { output: StepOutput }).output).toEqual(output);
    // `{{ nodes.db.data.rows }}` read the stored rows, not the thousand the query gave.
    const out = detail.steps.find((step) => step.nodeId === "out")?.output;
    expect(out?.data).toEqual(data.rows);
    expect(detail.output).toEqual(data.rows);
  });

  it("a run resumed after a restart reads the same stored rows as it would have live", async () => {
    const first = newEngine();
    const workflow = await createWorkflow(wideWorkflow(true), temp.database);
    const { runId } = await createRun(workflow.id, {}, {}, temp.database);
    // A failed run would never ask: fail then, with its error, instead of waiting out the test's ceiling.
    const requested = Promise.race([
      nextEvent(runId, "approval-requested"),
      nextEvent(runId, "run-failed").then((event) => Promise.reject(new Error(`The run failed: ${event.payload.error}`))),
    ]);
    await first.start(runId);
    const { approval } = (await requested).payload;

    // The query step is stored bounded before the restart: what the restarted engine reads.
    const { data } = await storedQueryStep(runId);
    await first.handBackAll(30_000);

    const next = newEngine();
    expect(await next.resumeAll()).toContain(runId);
    expect((await next.decide(approval.id, { decision: "once", feedback: null, decidedBy: "tester" }))?.changed).toBe(true);
    await next.settled(runId);
    const detail = await getRunDetail(runId, temp.database);
    expect(detail.status, detail.error ?? "").toBe("succeeded");
    expect(detail.steps.find((step) => step.nodeId === "out")?.output?.data).toEqual(data.rows);
  });
});

describe("a workflow that keeps full outputs", () => {
  /** Runs the wide query (no approval) with `keepFullOutputs` as given, on an engine keeping through `keeper`. */
  async function wideRun(keepFullOutputs: boolean | undefined, keeper: FullOutputKeeper): Promise<string> {
    const keeping = newEngine(keeper);
    const workflow = await createWorkflow({ ...wideWorkflow(false), keepFullOutputs }, temp.database);
    const { runId } = await createRun(workflow.id, {}, {}, temp.database);
    await keeping.start(runId);
    await keeping.settled(runId);
    expect((await getRunDetail(runId, temp.database)).status).toBe("succeeded");
    return runId;
  }

  it("keeps the whole result beside the stored part, says so, reads back exactly, and goes with its run", async () => {
    const kept = new DatabaseFullOutputs(temp.database);
    const runId = await wideRun(true, kept);
    const { output, data } = await storedQueryStep(runId);
    expect(output.truncated!.kept).toBe(true);
    expect(output.truncated!.notice).toMatch(/The whole result is kept: download it from the run page\.$/);
    // Later steps still read the stored part.
    expect((await getRunDetail(runId, temp.database)).output).toEqual(data.rows);

    const stream = await kept.open(runId, "db");
    const text = await new Response(stream).text();
    expect(Buffer.byteLength(text)).toBe(output.truncated!.totalBytes);
    const whole = JSON.parse(text) as { data: QueryData; truncated?: unknown };
    expect(whole.truncated).toBeUndefined();
    expect(whole.data.rows).toHaveLength(ROWS);
    expect(whole.data.rows.map((row) => row.id)).toEqual(Array.from({ length: ROWS }, (_, index) => index + 1));
    // Over a megabyte: several parts, each within the part size.
    expect(await temp.database.keptOutputPart.count({ where: { runId, nodeId: "db" } })).toBe(Math.ceil(output.truncated!.totalBytes / 1_000_000));
    expect(await kept.open(runId, "out")).toBeNull();

    await deleteRun(runId, temp.database);
    expect(await temp.database.keptOutputPart.count({ where: { runId } })).toBe(0);
    expect(await kept.open(runId, "db")).toBeNull();
  });

  it("keeps nothing for a workflow that does not ask, and says so when keeping fails", async () => {
    const kept = new DatabaseFullOutputs(temp.database);
    const plain = await wideRun(undefined, kept);
    const { output } = await storedQueryStep(plain);
    expect(output.truncated!.kept).toBeUndefined();
    expect(output.truncated!.notice).not.toMatch(/whole result/);
    expect(await temp.database.keptOutputPart.count({ where: { runId: plain } })).toBe(0);

    const failing = await wideRun(true, { keep: () => Promise.reject(new Error("disk full")) });
    const { output: unkept } = await storedQueryStep(failing);
    expect(unkept.truncated!.kept).toBeUndefined();
    expect(unkept.truncated!.notice).toMatch(/The whole result could not be kept/);
  });
});
