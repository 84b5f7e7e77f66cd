import { afterAll, describe, expect, it } from "vitest";
import { RetentionPolicySchema, type RetentionPolicy } from "@/lib/contracts/retention";
import type { WorkflowDefinitionInput } from "@/lib/workflow/definition";
import type { DatabaseProvider } from "./database-provider";
import { sqliteWriter } from "./database";
import { newId } from "./ids";
import { deleteRunTreesThrough, RunStillGoingError } from "./run-deletion";
import type { RunWrites } from "./sqlite-writer";
import { clearWorkflowRetention, countPrunable, databaseBytes, pruneRuns, readStudioRetention, reclaimSpace, saveRetention, spaceNote } from "./run-retention";
import { openTempDatabase, type TempDatabase } from "./temp-database";
import { createWorkflow } from "./workflow-store";

/**
 * Retention's pruning on a real database (SQLite and PostgreSQL), with the
 * clock fixed: by age, by the newest N per workflow, failed runs kept longer,
 * a workflow's own setting, runs that go on (and runs whose called runs go on)
 * untouched, child runs removed with their caller, in batches.
 */

const temps: TempDatabase[] = [];
afterAll(async () => {
  for (const temp of temps) await temp.close();
});

const DEFINITION: WorkflowDefinitionInput = {
  name: "kept or not",
  nodes: [
    { id: "in", kind: "input", fields: [] },
    { id: "out", kind: "output", value: "done" },
  ],
  edges: [{ id: "e", source: "in", target: "out" }],
};

const NOW = new Date("2026-06-01T12:00:00Z");
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 24 * 60 * 60 * 1000);
const policy = (values: Partial<RetentionPolicy>): RetentionPolicy => ({ keepDays: null, keepLast: null, keepFailedDays: null, ...values });

async function setUp(provider: DatabaseProvider) {
  const temp = await openTempDatabase({ provider });
  temps.push(temp);
  const database = temp.database;
  const workflowOf = async (name: string) => {
    const workflow = await createWorkflow({ ...DEFINITION, name }, database);
    const version = await database.workflowVersion.findFirstOrThrow({ where: { workflowId: workflow.id } });
    /** A run of this workflow started `age` days ago, with a step and an event (removed with it by the cascade). */
    const run = async (age: number, status: string, source: { runId: string; item: number } | null = null) => {
      const id = newId();
      await database.run.create({
        data: {
          id,
          workflowId: workflow.id,
          versionId: version.id,
          status,
          inputs: "{}",
          createdAt: daysAgo(age),
          startedAt: daysAgo(age),
          ...(source ? { sourceRunId: source.runId, sourceKind: "for-each", sourceNodeId: "loop", sourceAttempt: 1, sourceItem: source.item } : {}),
        },
      });
      await database.step.create({ data: { id: newId(), runId: id, nodeId: "out", status: "succeeded" } });
      await database.runEvent.create({ data: { runId: id, seq: 1, type: "run-started", payload: "{}" } });
      return id;
    };
    return { id: workflow.id, run };
  };
  const remaining = async (ids: string[]) => (await database.run.findMany({ where: { id: { in: ids } }, select: { id: true } })).map((row) => row.id).sort();
  return { database, workflowOf, remaining };
}

describe.each<DatabaseProvider>(["sqlite", "postgresql"])("run retention on %s", (provider) => {
  it("keeps everything until a setting says otherwise; then removes finished runs by age, never running or waiting ones", async () => {
    const { database, workflowOf, remaining } = await setUp(provider);
    const flow = await workflowOf("by age");
    const old = [await flow.run(40, "succeeded"), await flow.run(35, "failed"), await flow.run(31, "cancelled")];
    const going = [await flow.run(60, "running"), await flow.run(50, "awaiting_input")];
    const young = [await flow.run(10, "succeeded"), await flow.run(29, "failed")];
    const all = [...old, ...going, ...young];

    expect(await readStudioRetention(database)).toEqual(policy({}));
    expect(await countPrunable(database, NOW)).toBe(0);
    expect(await pruneRuns(database, { now: NOW })).toEqual({ runsDeleted: 0, batches: 0, keptGoing: 0 });

    await saveRetention(policy({ keepDays: 30 }), "tester", null, database);
    expect(await countPrunable(database, NOW)).toBe(3);
    const report = await pruneRuns(database, { now: NOW });
    expect(report).toMatchObject({ runsDeleted: 3, keptGoing: 0 });
    expect(await remaining(all)).toEqual([...going, ...young].sort());
    // Their steps and events went with them (ON DELETE CASCADE).
    expect(await database.step.count({ where: { runId: { in: old } } })).toBe(0);
    expect(await database.runEvent.count({ where: { runId: { in: old } } })).toBe(0);
    expect(await countPrunable(database, NOW)).toBe(0);
  });

  it("keeps each workflow's newest N runs; failed runs are kept longer; a workflow's own setting replaces the studio's", async () => {
    const { database, workflowOf, remaining } = await setUp(provider);
    const counted = await workflowOf("last N");
    const newest = [await counted.run(1, "succeeded"), await counted.run(2, "succeeded")];
    const beyond = [await counted.run(3, "succeeded"), await counted.run(4, "cancelled")];
    // Beyond the newest two, but failed 5 days ago: kept for 7 days.
    const failedRecently = await counted.run(5, "failed");
    const failedLongAgo = await counted.run(8, "failed");
    const waiting = await counted.run(9, "awaiting_input");

    const own = await workflowOf("its own setting");
    const ownRuns = [await own.run(3, "succeeded"), await own.run(4, "succeeded"), await own.run(5, "succeeded")];
    const ownOld = await own.run(100, "succeeded");

    await saveRetention(policy({ keepLast: 2, keepFailedDays: 7 }), "tester", null, database);
    await saveRetention(policy({ keepDays: 90 }), "tester", own.id, database);
    expect(await countPrunable(database, NOW)).toBe(4);
    await pruneRuns(database, { now: NOW });
    expect(await remaining([...newest, ...beyond, failedRecently, failedLongAgo, waiting])).toEqual([...newest, failedRecently, waiting].sort());
    expect(await remaining([...ownRuns, ownOld])).toEqual([...ownRuns].sort());

    // Without its own setting the workflow follows the studio's again: its newest two stay.
    expect(await clearWorkflowRetention(own.id, database)).toBe(true);
    await pruneRuns(database, { now: NOW });
    expect(await remaining(ownRuns)).toEqual([ownRuns[0]!, ownRuns[1]!].sort());
  });

  it("removes the runs a run called with it, and leaves the whole run while one of them goes on", async () => {
    const { database, workflowOf, remaining } = await setUp(provider);
    const flow = await workflowOf("loops");
    const done = await flow.run(40, "succeeded");
    const doneItems = [await flow.run(40, "succeeded", { runId: done, item: 0 }), await flow.run(40, "failed", { runId: done, item: 1 })];
    const grandchild = await flow.run(40, "succeeded", { runId: doneItems[0]!, item: 0 });
    const stuck = await flow.run(40, "cancelled");
    const stuckItem = await flow.run(40, "awaiting_input", { runId: stuck, item: 0 });

    await saveRetention(policy({ keepDays: 30 }), "tester", null, database);
    // Called runs are counted with their caller, not on their own.
    expect(await countPrunable(database, NOW)).toBe(2);
    const report = await pruneRuns(database, { now: NOW });
    expect(report).toMatchObject({ runsDeleted: 4, keptGoing: 1 });
    expect(await remaining([done, ...doneItems, grandchild, stuck, stuckItem])).toEqual([stuck, stuckItem].sort());
  });

  it("deletes in batches, pausing between them, and stops between batches when asked", async () => {
    const { database, workflowOf } = await setUp(provider);
    const flow = await workflowOf("many");
    for (let index = 0; index < 7; index += 1) await flow.run(40 + index, "succeeded");
    await saveRetention(policy({ keepDays: 30 }), "tester", null, database);

    const stop = new AbortController();
    let pauses = 0;
    const first = await pruneRuns(database, {
      now: NOW,
      batchSize: 3,
      signal: stop.signal,
      pause: async () => {
        pauses += 1;
        stop.abort();
      },
    });
    expect(first).toMatchObject({ runsDeleted: 3, batches: 1 });
    expect(pauses).toBe(1);

    const rest = await pruneRuns(database, { now: NOW, batchSize: 3, pause: async () => void (pauses += 1) });
    expect(rest).toMatchObject({ runsDeleted: 4, batches: 2 });
    expect(pauses).toBe(3);
    expect(await database.run.count({ where: { workflowId: flow.id } })).toBe(0);
  });

  it("reports the database's size and how its space comes back", async () => {
    const { database } = await setUp(provider);
    expect(await databaseBytes(database)).toBeGreaterThan(0);
    const note = await spaceNote(database);
    if (provider === "sqlite") {
      // The studio's SQLite files are made without auto-vacuum: nothing to reclaim page by page, and no VACUUM is run.
      expect(note).toMatch(/does not shrink/);
      expect(await reclaimSpace(database)).toBe(0);
    } else {
      expect(note).toMatch(/autovacuum/);
    }
  });
});

describe("pruning on SQLite, written by the run writer's thread", () => {
  it("forgets a pin's source run, deletes the trees, and fails the whole batch when a run went on again meanwhile", async () => {
    const { database, workflowOf, remaining } = await setUp("sqlite");
    const writer = sqliteWriter(database)!;
    expect(writer).not.toBeNull();
    const flow = await workflowOf("pinned");
    const pinned = await flow.run(40, "succeeded");
    const item = await flow.run(40, "succeeded", { runId: pinned, item: 0 });
    const pinId = newId();
    await database.workflowPin.create({ data: { id: pinId, workflowId: flow.id, nodeId: "out", output: "{}", fromRunId: pinned } });
    expect(await deleteRunTreesThrough(writer, [pinned], database)).toEqual({ deleted: [pinned, item], kept: [] });
    expect(await remaining([pinned, item])).toEqual([]);
    expect(await database.workflowPin.findUniqueOrThrow({ where: { id: pinId } })).toMatchObject({ fromRunId: null });

    // Read as finished, then going again before the writer deletes it (a retry on another connection): nothing goes.
    const first = await flow.run(40, "succeeded");
    const second = await flow.run(40, "succeeded");
    const racing: RunWrites = {
      transactions: 0,
      close: () => writer.close(),
      commit: async (writes) => {
        await database.run.update({ where: { id: second }, data: { status: "running" } });
        return writer.commit(writes);
      },
    };
    await expect(deleteRunTreesThrough(racing, [first, second], database)).rejects.toBeInstanceOf(RunStillGoingError);
    expect(await remaining([first, second])).toEqual([first, second].sort());
    expect(await database.step.count({ where: { runId: first } })).toBe(1);
  });
});

describe("the retention setting's contract", () => {
  it("names the field that is wrong", () => {
    const issues = (value: unknown) => RetentionPolicySchema.safeParse(value).error?.issues.map((issue) => issue.path.join("."));
    expect(issues({ keepDays: 0, keepLast: null, keepFailedDays: null })).toEqual(["keepDays"]);
    expect(issues({ keepDays: 30, keepLast: 2.5, keepFailedDays: null })).toEqual(["keepLast"]);
    expect(issues({ keepDays: 30, keepLast: null, keepFailedDays: 10 })).toEqual(["keepFailedDays"]);
    expect(issues({ keepDays: 30, keepLast: null })).toEqual(["keepFailedDays"]);
    expect(issues({ keepDays: 30, keepLast: null, keepFailedDays: null, keepForever: true })).toEqual([""]);
    expect(issues({ keepDays: 30, keepLast: 5, keepFailedDays: 60 })).toBeUndefined();
  });
});

describe("space after pruning on SQLite", () => {
  it("gives free pages back page by page when the file's auto_vacuum is incremental", async () => {
    const { database, workflowOf } = await setUp("sqlite");
    // A file made with incremental auto-vacuum (the studio's own are not: VACUUM would have to rewrite them first).
    await database.$executeRawUnsafe("PRAGMA auto_vacuum = INCREMENTAL");
    await database.$executeRawUnsafe("VACUUM");
    expect(await spaceNote(database)).toMatch(/given back/);
    const flow = await workflowOf("bulky");
    for (let index = 0; index < 20; index += 1) {
      const id = await flow.run(40, "succeeded");
      await database.run.update({ where: { id }, data: { output: "x".repeat(64 * 1024) } });
    }
    const before = await databaseBytes(database);
    await saveRetention(policy({ keepDays: 30 }), "tester", null, database);
    expect((await pruneRuns(database, { now: NOW })).runsDeleted).toBe(20);
    let pauses = 0;
    expect(await reclaimSpace(database, async () => void (pauses += 1))).toBeGreaterThan(100);
    expect(pauses).toBeGreaterThan(0);
    const [free] = await database.$queryRawUnsafe<{ freelist_count: bigint | number }[]>("PRAGMA freelist_count");
    expect(Number(free?.freelist_count)).toBe(0);
    expect(await databaseBytes(database)).toBeLessThan(before / 2);
  });
});
