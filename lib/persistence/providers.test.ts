import { describe, expect, it, vi } from "vitest";
import { createWorkflow } from "./workflow-store";
import { createRun, eventTextJson, getRunDetail, readEvents, readEventTexts } from "./run-queries";
import { loadRunWithPrisma, PrismaRunStore } from "./run-store";
import { postgresStatements, sqliteWriter, type StudioDatabase } from "./database";
import type { DatabaseProvider } from "./database-provider";
import { BOTH_PROVIDERS, openBothDatabases } from "@/tests/support/both-databases";
import type { LoadedRun, RunCommit, RunEvent } from "@/lib/workflow/run-types";

/*
 * The same values written through the same stores read back identically on
 * both databases: large step outputs and event payloads, every kind of
 * character JSON can carry, ids, and times to the millisecond.
 */

const providers = BOTH_PROVIDERS;
const databases = openBothDatabases();

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
  return {
    runId,
    detail: await getRunDetail(runId, database),
    events: await readEvents(runId, 0, 10, database),
    // As a stream writes them: the payload is SQLite's bytes and PostgreSQL's text, the same JSON put together.
    texts: (await readEventTexts(runId, 0, 10, database)).map((text) => ({ seq: text.seq, type: text.type, json: eventTextJson(text) })),
    // Pages bounded by their payloads' size: the first event always; the next only when the payloads before it come to less.
    bounded: [1_000, 50].map(async (maxBytes) => (await readEventTexts(runId, 0, 10, database, maxBytes)).map((text) => text.seq)),
  };
}

describe("the same values on SQLite and PostgreSQL", () => {
  it("round-trip large outputs and events, every character, ids and millisecond times identically", async () => {
    const [sqlite, postgres] = await Promise.all(providers.map(writeAndRead));
    for (const { detail, events, texts, bounded } of [sqlite!, postgres!]) {
      expect(await Promise.all(bounded)).toEqual([[1, 2], [1]]);
      // What an event stream replays, put together around the stored payload, is the very event, on one line (SSE's data).
      expect(texts.map((text) => JSON.parse(text.json) as unknown)).toEqual(events);
      expect(texts.map((text) => [text.seq, text.type])).toEqual(events.map((event) => [event.seq, event.type]));
      for (const text of texts) expect(text.json).not.toMatch(/[\r\n]/);
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

/** Counts the transactions the store's prepared-statement path opens on `database` from now on (on SQLite, its writer thread's). */
async function countTransactions(provider: DatabaseProvider, database: StudioDatabase): Promise<() => number> {
  if (provider === "postgresql") {
    const spy = vi.spyOn(postgresStatements(database)!, "transaction");
    return () => spy.mock.calls.length;
  }
  const writer = sqliteWriter(database)!;
  const before = writer.transactions;
  return () => writer.transactions - before;
}

/** A loaded run with its steps in node order: Prisma's `include` promises no order. */
const inNodeOrder = (loaded: LoadedRun | null) => loaded && { ...loaded, steps: [...loaded.steps].sort((left, right) => left.nodeId.localeCompare(right.nodeId)) };

describe("the prepared-statement paths", () => {
  async function loadBothWays(provider: DatabaseProvider) {
    const { database } = databases.get(provider)!;
    const workflow = await createWorkflow(
      {
        name: "Both paths",
        nodes: [
          { id: "in", kind: "input", fields: [{ name: "text" }] },
          { id: "b-out", kind: "output", value: "{{ inputs.text }}" },
          { id: "a-out", kind: "output", value: "done" },
        ],
        edges: [],
      },
      database,
    );
    const { runId } = await createRun(workflow.id, { text: awkward, list: [1, 2.5, null, true] }, {}, database);
    const store = new PrismaRunStore(database);
    await store.claimRun(runId, "drive");
    // A whole second, a millisecond and a time Prisma never wrote: each reads back as the ISO text it was.
    await store.commit(runId, {
      run: { status: "awaiting_input", error: "half way" },
      steps: [
        { nodeId: "b-out", status: "succeeded", input: { awkward }, output: { content: awkward, data: { n: 1e21 } }, attempt: 1, startedAt: "2026-12-01T08:00:00.000Z", finishedAt: "2026-12-01T08:00:00.001Z" },
        { nodeId: "a-out", status: "retrying", error: "reset", errorKind: "network", attempt: 2, retryAt: "2026-12-31T23:59:59.999Z", startedAt: "2026-12-01T08:00:00.123Z", finishedAt: null },
      ],
      events: [{ runId, seq: 1, type: "run-started", nodeId: null, payload: { inputs: { awkward } }, createdAt: "2026-12-01T08:00:00.000Z" }] as RunEvent[],
      driver: "drive",
    });
    await database.run.update({ where: { id: runId }, data: { cancelRequestedAt: new Date(), cancelRequestedBy: "someone" } });
    // Two grants in force (read in the order they were given) and one that ran out.
    const grant = (pattern: string, createdAt: string, expiresAt: string | null) => ({
      id: `${runId}-${pattern}`,
      workflowId: workflow.id,
      root: "/srv/notes",
      pattern,
      createdAt: new Date(createdAt),
      expiresAt: expiresAt ? new Date(expiresAt) : null,
    });
    await database.grant.createMany({
      data: [grant("later/**", "2026-12-01T08:00:02.000Z", "2999-01-01T00:00:00.000Z"), grant("first/**", "2026-12-01T08:00:01.000Z", null), grant("gone/**", "2026-12-01T08:00:00.000Z", "2026-12-01T09:00:00.000Z")],
    });
    return { runId, store, prepared: await store.loadRun(runId), prisma: await loadRunWithPrisma(database, runId), workflowId: workflow.id };
  }

  it.each(providers)("on %s, loadRun reads what Prisma reads: ids, times and JSON", async (provider) => {
    const { runId, store, prepared, prisma, workflowId } = await loadBothWays(provider);
    // PostgreSQL reads the workflow's grants with the run (one round trip); SQLite leaves them to listGrants.
    const { grants, ...run } = prepared!;
    expect(inNodeOrder(run)).toEqual(inNodeOrder(prisma));
    const inForce = [
      { root: "/srv/notes", pattern: "first/**" },
      { root: "/srv/notes", pattern: "later/**" },
    ];
    expect(await store.listGrants(workflowId)).toEqual(inForce);
    expect(grants).toEqual(provider === "postgresql" ? inForce : undefined);
    expect(prepared?.run).toMatchObject({ id: runId, workflowId, status: "awaiting_input", error: "half way", lastSeq: 1, inputs: { text: awkward, list: [1, 2.5, null, true] } });
    expect(prepared?.cancelRequest).toEqual({ by: "someone" });
    expect(prepared?.steps.map((step) => [step.nodeId, step.status, step.attempt, step.startedAt, step.finishedAt, step.retryAt, step.errorKind])).toEqual([
      ["a-out", "retrying", 2, "2026-12-01T08:00:00.123Z", null, "2026-12-31T23:59:59.999Z", "network"],
      ["b-out", "succeeded", 1, "2026-12-01T08:00:00.000Z", "2026-12-01T08:00:00.001Z", null, null],
      ["in", "pending", 0, null, null, null, null],
    ]);
    expect(prepared?.steps.find((step) => step.nodeId === "b-out")).toMatchObject({ input: { awkward }, output: { content: awkward, data: { n: 1e21 } } });
    // Times the database set itself (the run's creation) read back as the same instant on both paths.
    expect(prepared?.run.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(prepared?.run.createdAt).toBe(prisma?.run.createdAt);
  });

  it.each(providers)("on %s, a commit that writes one step twice (started, then finished) and others with other columns leaves each as written in order", async (provider) => {
    const { database } = databases.get(provider)!;
    const workflow = await createWorkflow(
      {
        name: "Twice in a commit",
        nodes: [
          { id: "in", kind: "input", fields: [] },
          { id: "a", kind: "output", value: "a" },
          { id: "b", kind: "output", value: "b" },
        ],
        edges: [],
      },
      database,
    );
    const { runId } = await createRun(workflow.id, {}, {}, database);
    const store = new PrismaRunStore(database);
    await store.claimRun(runId, "drive");
    await store.commit(runId, {
      run: { status: "running" },
      steps: [
        { nodeId: "a", status: "running", input: { n: 1 }, attempt: 1, startedAt: "2026-12-01T08:00:00.100Z" },
        { nodeId: "b", status: "retrying", error: "reset", errorKind: "network", attempt: 1, retryAt: "2026-12-01T08:01:00.000Z" },
        { nodeId: "a", status: "succeeded", output: { content: "done" }, finishedAt: "2026-12-01T08:00:00.200Z" },
        { nodeId: "in", status: "succeeded", output: { content: "" }, finishedAt: "2026-12-01T08:00:00.050Z" },
      ],
      events: [],
      driver: "drive",
    });
    const loaded = await store.loadRun(runId);
    const byNode = new Map(loaded!.steps.map((step) => [step.nodeId, step]));
    expect(byNode.get("a")).toMatchObject({ status: "succeeded", input: { n: 1 }, output: { content: "done" }, attempt: 1, startedAt: "2026-12-01T08:00:00.100Z", finishedAt: "2026-12-01T08:00:00.200Z" });
    expect(byNode.get("b")).toMatchObject({ status: "retrying", error: "reset", errorKind: "network", attempt: 1, retryAt: "2026-12-01T08:01:00.000Z", output: null });
    expect(byNode.get("in")).toMatchObject({ status: "succeeded", output: { content: "" }, finishedAt: "2026-12-01T08:00:00.050Z", attempt: 0 });
  });

  it.each(providers)("on %s, commits in flight share one transaction, and a fenced-out drive fails alone", async (provider) => {
    // PostgreSQL writes a batch that failed again a commit a transaction (no savepoint per commit); SQLite's writer
    // gives each commit a savepoint of its own (in process, it costs nothing). Either way one batch of good commits is one transaction.
    const { database } = databases.get(provider)!;
    const workflow = await createWorkflow({ name: "Grouped", nodes: [{ id: "in", kind: "input", fields: [] }], edges: [] }, database);
    const runIds = await Promise.all([1, 2, 3].map(async () => (await createRun(workflow.id, {}, {}, database)).runId));
    const store = new PrismaRunStore(database);
    for (const runId of runIds) await store.claimRun(runId, "ours");
    // Another process took the middle run over: our drive of it is fenced out.
    const fenced = runIds[1]!;
    await store.claimRun(fenced, "theirs");
    const step = (runId: string): RunCommit => ({
      run: { status: "succeeded", finishedAt: "2026-12-01T08:00:00.500Z" },
      steps: [{ nodeId: "in", status: "succeeded", startedAt: "2026-12-01T08:00:00.250Z", finishedAt: "2026-12-01T08:00:00.500Z" }],
      events: [{ runId, seq: 1, type: "run-succeeded", nodeId: null, payload: { output: null }, createdAt: "2026-12-01T08:00:00.500Z" }] as RunEvent[],
      driver: "ours",
    });

    const transactions = await countTransactions(provider, database);
    const results = await Promise.allSettled(runIds.map((runId) => store.commit(runId, step(runId))));
    const transactionCount = transactions();
    vi.restoreAllMocks();

    expect(transactionCount).toBe(provider === "postgresql" ? 1 + runIds.length : 1);
    expect(results.map((result) => result.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(String((results[1] as PromiseRejectedResult).reason)).toMatch(/driven elsewhere/);
    for (const runId of runIds) {
      const landed = runId !== fenced;
      const detail = await getRunDetail(runId, database);
      expect(detail.status).toBe(landed ? "succeeded" : "running");
      expect(detail.finishedAt).toBe(landed ? "2026-12-01T08:00:00.500Z" : null);
      expect(detail.steps[0]?.status).toBe(landed ? "succeeded" : "pending");
      expect((await readEvents(runId, 0, 10, database)).map((event) => event.seq)).toEqual(landed ? [1] : []);
    }
    // The drive that holds it now still writes.
    await store.commit(fenced, { ...step(fenced), driver: "theirs" });
    expect((await getRunDetail(fenced, database)).status).toBe("succeeded");

    const good = await Promise.all([1, 2, 3].map(async () => (await createRun(workflow.id, {}, {}, database)).runId));
    for (const runId of good) await store.claimRun(runId, "ours");
    const goodTransactions = await countTransactions(provider, database);
    await Promise.all(good.map((runId) => store.commit(runId, step(runId))));
    const goodCount = goodTransactions();
    vi.restoreAllMocks();
    expect(goodCount).toBe(1);
    for (const runId of good) expect((await getRunDetail(runId, database)).status).toBe("succeeded");
  });
});
