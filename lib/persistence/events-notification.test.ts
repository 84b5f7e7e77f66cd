import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunEvent } from "@/lib/workflow/run-types";
import { disconnectDatabase, openDatabase, type StudioDatabase } from "./database";
import { createRun, readEvents } from "./run-queries";
import { NOTIFICATION_CARRIES_BYTES, PrismaRunStore, RUN_EVENTS_CHANNEL } from "./run-store";
import { createPostgresDatabase, dropPostgresDatabase } from "./temp-database";
import { createWorkflow } from "./workflow-store";

/**
 * On PostgreSQL with several processes, a commit's events are announced in its transaction: a small commit's
 * notification carries the events exactly as readEvents gives them back (so a web process need not read them), a
 * large one's only their numbers (PostgreSQL refuses a payload of 8,000 bytes or more, which would fail the commit).
 */

let url: string;
let database: StudioDatabase;
let listener: pg.Client;
const heard: string[] = [];

beforeAll(async () => {
  url = await createPostgresDatabase();
  database = openDatabase(url);
  listener = new pg.Client({ connectionString: url });
  await listener.connect();
  listener.on("notification", (message) => heard.push(message.payload ?? ""));
  await listener.query(`LISTEN ${RUN_EVENTS_CHANNEL}`);
}, 60_000);

afterAll(async () => {
  await listener?.end();
  if (database) await disconnectDatabase(database);
  if (url) await dropPostgresDatabase(url);
});

async function newRun(): Promise<string> {
  const workflow = await createWorkflow({ name: "Announced", nodes: [{ id: "in", kind: "input", fields: [] }], edges: [] }, database);
  return (await createRun(workflow.id, {}, {}, database)).runId;
}

const store = () => new PrismaRunStore(database, { shared: { afterDecision: async () => undefined } });
const at = "2026-12-05T10:00:00.123Z";

describe("the events notification", () => {
  it("carries a small commit's events as readEvents gives them back", async () => {
    const runId = await newRun();
    const events = [
      { runId, seq: 1, type: "run-started", nodeId: null, payload: { inputs: { text: "naïve 🚀 \"quoted\"" } }, createdAt: at },
      { runId, seq: 2, type: "node-started", nodeId: "in", payload: { attempt: 1 }, createdAt: at },
    ] as RunEvent[];
    await store().commit(runId, { steps: [], events });
    await expect.poll(() => heard.find((payload) => payload.startsWith(`${runId} `))).toBeDefined();
    const payload = heard.find((each) => each.startsWith(`${runId} `))!;
    expect(payload.startsWith(`${runId} 1 2 more `)).toBe(true);
    expect(JSON.parse(payload.slice(`${runId} 1 2 more `.length))).toEqual(await readEvents(runId, 0, 10, database));
  });

  it("carries only the numbers of a commit whose events do not fit, and the commit still lands", async () => {
    const runId = await newRun();
    const big = "x".repeat(NOTIFICATION_CARRIES_BYTES);
    await store().commit(runId, { steps: [], events: [{ runId, seq: 1, type: "run-started", nodeId: null, payload: { inputs: { big } }, createdAt: at }] as RunEvent[] });
    await expect.poll(() => heard.find((payload) => payload.startsWith(`${runId} `))).toBe(`${runId} 1 1 more`);
    expect(((await readEvents(runId, 0, 10, database))[0]!.payload as { inputs: { big: string } }).inputs.big).toBe(big);
  });
});
