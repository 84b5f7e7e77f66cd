import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createWorkflow } from "./workflow-store";
import { findRunnableVersion, IdempotencyKeyTaken, insertRun, readEvents } from "./run-queries";
import { PrismaRunStore } from "./run-store";
import { openTempDatabase, type TempDatabase } from "./temp-database";
import { sqliteWriter } from "./database";
import { InlineSqliteWriter } from "./sqlite-inline-writer";
import type { RunEvent } from "@/lib/workflow/run-types";

/*
 * The embedded studio writes runs on a thread of its own (sqlite-writer.ts),
 * with a second connection to the file the rest of the studio reads and
 * writes through Prisma. What must hold: a commit is readable on the main
 * connection once it resolved, errors keep what callers read from them, and
 * the two connections never fail each other's transactions.
 */

let temp: TempDatabase;
beforeEach(async () => {
  temp = await openTempDatabase();
});
afterEach(async () => {
  await temp.close();
});

const oneNode = { name: "Writer", nodes: [{ id: "in", kind: "input" as const, fields: [] }], edges: [] };

describe("the SQLite writer thread", () => {
  it("writes a run's creation and commits on its thread, readable on the main connection as soon as each resolves", async () => {
    const { database } = temp;
    const writer = sqliteWriter(database)!;
    expect(writer).not.toBeNull();
    const workflow = await createWorkflow(oneNode, database);
    const before = writer.transactions;
    const run = await insertRun(await findRunnableVersion(workflow.id, undefined, database), {}, database);
    expect(await database.run.findUnique({ where: { id: run.id }, select: { status: true } })).toEqual({ status: "running" });

    const event: RunEvent = { runId: run.id, seq: 1, type: "run-started", nodeId: null, payload: { inputs: {} }, createdAt: new Date().toISOString() } as RunEvent;
    await new PrismaRunStore(database).commit(run.id, { steps: [{ nodeId: "in", status: "succeeded" }], events: [event] });
    expect((await readEvents(run.id, 0, 10, database)).map((each) => each.seq)).toEqual([1]);
    expect((await database.step.findFirst({ where: { runId: run.id, nodeId: "in" } }))?.status).toBe("succeeded");
    expect(writer.transactions - before).toBe(2);
  });

  it("hands back a constraint's SQLite code across the thread: a webhook delivery's key taken twice is IdempotencyKeyTaken, and nothing of the second run is written", async () => {
    const { database } = temp;
    const workflow = await createWorkflow(oneNode, database);
    const version = await findRunnableVersion(workflow.id, undefined, database);
    const delivery = { workflowId: workflow.id, hookId: "hook", idempotencyKey: "key-1" };
    await insertRun(version, {}, database, { delivery });
    const second = insertRun(version, {}, database, { delivery, runId: "second-run" });
    await expect(second).rejects.toSatisfy(IdempotencyKeyTaken.isInstance);
    expect(await database.run.findUnique({ where: { id: "second-run" } })).toBeNull();
    expect(await database.step.count({ where: { runId: "second-run" } })).toBe(0);
  });

  it("lets a Prisma transaction that read before the writer's commit still write after it (no stale snapshot)", async () => {
    const { database } = temp;
    const workflow = await createWorkflow(oneNode, database);
    const run = await insertRun(await findRunnableVersion(workflow.id, undefined, database), {}, database);
    const event = (seq: number) => ({ runId: run.id, seq, type: "run-resumed", nodeId: null, payload: {}, createdAt: new Date().toISOString() }) as RunEvent;
    const store = new PrismaRunStore(database);

    let committed: Promise<void> | null = null;
    await database.$transaction(async (transaction) => {
      const read = await transaction.workflow.findUniqueOrThrow({ where: { id: workflow.id } });
      // The writer commits while this transaction is open. Had it read on a deferred snapshot, the writer's commit would
      // land now and the update below would fail with SQLITE_BUSY_SNAPSHOT; holding the lock from its start, this
      // transaction makes the writer wait (its commit cannot resolve until this one ends).
      committed = store.commit(run.id, { steps: [], events: [event(1)] });
      const landedMeanwhile = await Promise.race([committed.then(() => true), new Promise<false>((resolve) => setTimeout(() => resolve(false), 300))]);
      expect(landedMeanwhile).toBe(false);
      await transaction.workflow.update({ where: { id: workflow.id }, data: { name: `${read.name} (renamed)` } });
    });
    await committed;
    expect((await database.workflow.findUniqueOrThrow({ where: { id: workflow.id } })).name).toBe("Writer (renamed)");
    expect((await readEvents(run.id, 0, 10, database)).map((each) => each.seq)).toEqual([1]);
  });

  it("with STUDIO_SQLITE_WRITER=inline, writes the same on the client's own connection, commits in one turn sharing a transaction", async () => {
    const previous = process.env.STUDIO_SQLITE_WRITER;
    process.env.STUDIO_SQLITE_WRITER = "inline";
    const inline = await openTempDatabase().finally(() => {
      if (previous === undefined) delete process.env.STUDIO_SQLITE_WRITER;
      else process.env.STUDIO_SQLITE_WRITER = previous;
    });
    try {
      const { database } = inline;
      const writer = sqliteWriter(database)!;
      expect(writer).toBeInstanceOf(InlineSqliteWriter);
      const workflow = await createWorkflow(oneNode, database);
      const version = await findRunnableVersion(workflow.id, undefined, database);
      const before = writer.transactions;
      const runs = await Promise.all([1, 2, 3].map(() => insertRun(version, {}, database)));
      expect(writer.transactions - before).toBe(1);
      const store = new PrismaRunStore(database);
      const event = (runId: string) => ({ runId, seq: 1, type: "run-started", nodeId: null, payload: { inputs: {} }, createdAt: new Date().toISOString() }) as RunEvent;
      await Promise.all(runs.map((run) => store.commit(run.id, { steps: [], events: [event(run.id)] })));
      for (const run of runs) expect((await readEvents(run.id, 0, 10, database)).map((each) => each.seq)).toEqual([1]);
    } finally {
      await inline.close();
    }
  });

  it("ends its thread when the database is closed, after the commits it holds, and starts another when used again", async () => {
    const { database } = temp;
    const workflow = await createWorkflow(oneNode, database);
    const version = await findRunnableVersion(workflow.id, undefined, database);
    const writing = insertRun(version, {}, database);
    await sqliteWriter(database)!.close();
    const first = await writing;
    const again = await insertRun(version, {}, database);
    expect(await database.run.count({ where: { id: { in: [first.id, again.id] } } })).toBe(2);
  });
});
