import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkflow } from "./workflow-store";
import { createRun, getRunDetail, readEvents } from "./run-queries";
import { PrismaRunStore } from "./run-store";
import { openTempDatabase, type TempDatabase } from "./temp-database";
import type { DatabaseProvider } from "./database-provider";
import type { RunEvent } from "@/lib/workflow/run-types";

/*
 * The same values written through the same stores read back identically on
 * both databases: large step outputs and event payloads, every kind of
 * character JSON can carry, ids, and times to the millisecond.
 */

const providers: DatabaseProvider[] = ["sqlite", "postgresql"];
const databases = new Map<DatabaseProvider, TempDatabase>();

beforeAll(async () => {
  for (const provider of providers) databases.set(provider, await openTempDatabase({ provider }));
});
afterAll(async () => {
  for (const database of databases.values()) await database.close();
});

// About 3 MB of text mixing scripts, emoji (astral plane), quotes, backslashes, newlines and the NUL and other
// control characters (JSON escapes them, so the column itself never holds a raw NUL, which PostgreSQL's text refuses).
const awkward = "naïve café — 東京 🚀 \"quoted\" back\\slash\nnew line\ttab \u0000 \u0001 \u2028 \ud83d\ude00 ";
const large = awkward.repeat(Math.ceil(3_000_000 / awkward.length));

async function writeAndRead(provider: DatabaseProvider) {
  const { database } = databases.get(provider)!;
  const workflow = await createWorkflow(
    { name: "Round trip 🚀", nodes: [{ id: "in", kind: "input", fields: [{ name: "text" }] }, { id: "out", kind: "output", value: "{{ inputs.text }}" }], edges: [] },
    database,
  );
  const { runId } = await createRun(workflow.id, { text: awkward, nested: { list: [1, 2.5, -0, 1e21, null, true] } }, {}, database);
  const at = "2026-12-01T08:00:00.123Z";
  const events: RunEvent[] = [
    { runId, seq: 1, type: "run-started", nodeId: null, payload: { inputs: { text: awkward } }, createdAt: at },
    { runId, seq: 2, type: "node-succeeded", nodeId: "out", payload: { output: { content: large }, durationMs: 12 }, createdAt: at },
  ] as RunEvent[];
  await new PrismaRunStore(database).commit(runId, {
    run: { status: "succeeded", output: { big: large, awkward }, error: null, finishedAt: at },
    steps: [{ nodeId: "out", status: "succeeded", output: { content: large, data: { awkward } }, startedAt: at, finishedAt: at }],
    events,
  });
  return { runId, detail: await getRunDetail(runId, database), events: await readEvents(runId, 0, 10, database) };
}

describe("the same values on SQLite and PostgreSQL", () => {
  it("round-trip large outputs and events, every character, ids and millisecond times identically", async () => {
    const [sqlite, postgres] = await Promise.all(providers.map(writeAndRead));
    for (const { detail, events } of [sqlite!, postgres!]) {
      expect(detail.output).toEqual({ big: large, awkward });
      expect(detail.inputs).toEqual({ text: awkward, nested: { list: [1, 2.5, 0, 1e21, null, true] } });
      expect(detail.finishedAt).toBe("2026-12-01T08:00:00.123Z");
      expect(detail.steps.find((step) => step.nodeId === "out")?.output).toEqual({ content: large, data: { awkward } });
      expect(events.map((event) => [event.seq, event.type, event.createdAt])).toEqual([
        [1, "run-started", "2026-12-01T08:00:00.123Z"],
        [2, "node-succeeded", "2026-12-01T08:00:00.123Z"],
      ]);
      expect((events[1]!.payload as { output: { content: string } }).output.content).toBe(large);
    }
    // Apart from the ids each database made, both read back exactly the same.
    const comparable = (value: Awaited<ReturnType<typeof writeAndRead>>) =>
      JSON.parse(JSON.stringify(value).replaceAll(value.runId, "RUN").replaceAll(value.detail.workflowId, "WF").replaceAll(value.detail.versionId, "VER"));
    // When each run was created (and so how long it took) is the clock's, not the database's.
    const strip = (value: ReturnType<typeof comparable>) => ({ ...value, detail: { ...value.detail, createdAt: null, startedAt: null, durationMs: null } });
    expect(strip(comparable(postgres!))).toEqual(strip(comparable(sqlite!)));
  }, 60_000);

  it.each(providers)("on %s, a drive that lost its claim on a run writes nothing (fencing)", async (provider) => {
    const { database } = databases.get(provider)!;
    const workflow = await createWorkflow({ name: "Fenced", nodes: [{ id: "in", kind: "input", fields: [] }], edges: [] }, database);
    const { runId } = await createRun(workflow.id, {}, {}, database);
    const store = new PrismaRunStore(database);
    const event = (seq: number) => ({ runId, seq, type: "run-resumed", nodeId: null, payload: {}, createdAt: new Date().toISOString() }) as RunEvent;

    await store.claimRun(runId, "first");
    await store.commit(runId, { steps: [], events: [event(1)], driver: "first" });
    await store.claimRun(runId, "second");
    await expect(store.commit(runId, { run: { status: "failed" }, steps: [{ nodeId: "in", status: "failed" }], events: [event(2)], driver: "first" })).rejects.toThrow();
    await store.commit(runId, { steps: [], events: [event(2)], driver: "second" });

    const detail = await getRunDetail(runId, database);
    expect(detail.status).toBe("running");
    expect(detail.steps.find((step) => step.nodeId === "in")?.status).toBe("pending");
    expect((await readEvents(runId, 0, 10, database)).map((each) => each.seq)).toEqual([1, 2]);
  });
});
