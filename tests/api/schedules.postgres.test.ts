import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor, type Json } from "./api-client";
import { edge } from "./fixtures";
import { setupSharedPostgresDatabase, setupStudioServer, type StudioServer } from "./studio-server";
import { startWorker, type WorkerProcess } from "./worker-process";

/*
 * Schedules with several processes on one PostgreSQL database: two studio
 * processes that both serve and drive runs (STUDIO_ROLE=all) and a worker each
 * fire every slot of an every-second schedule; the unique slot row lets one of
 * them start its run. Only the api-postgresql project runs it.
 */

const shared = setupSharedPostgresDatabase();
const studios = [0, 1].map(() => setupStudioServer(() => ({ database: "postgresql", env: { ...shared, STUDIO_ROLE: "all" } })));
let worker: WorkerProcess | null = null;

beforeAll(async () => {
  worker = await startWorker(shared);
}, 180_000);

afterAll(async () => {
  await worker?.kill("SIGKILL");
});

describe("schedules on PostgreSQL with several processes", () => {
  it("an every-second schedule fired by three processes: each slot exactly one run", async () => {
    const [first, second] = studios.map((studio) => studio.client()) as [ReturnType<StudioServer["client"]>, ReturnType<StudioServer["client"]>];
    const { id } = await first.createWorkflow({
      name: "Every second, three processes",
      nodes: [
        { id: "tick", kind: "schedule", form: "cron", cron: "* * * * * *", timezone: "UTC", overlap: "allow" },
        { id: "out", kind: "output", value: "{{ nodes.tick.data.slot }}" },
      ],
      edges: [edge("tick", "out")],
    });
    // Published through one process: the others see it within their refresh.
    await first.expect(200, "POST", `/api/workflows/${id}/publish`, {});
    const publishedAt = Date.now();
    const runsOf = async (): Promise<Json[]> => await second.everyRow("runs", `workflowId=${id}`);
    // Past the others' refresh (5 s), so every process has been firing for several seconds.
    await waitFor(async () => (Date.now() > publishedAt + 12_000 && (await runsOf()).length >= 8 ? true : undefined), {
      timeoutMs: 60_000,
      intervalMs: 250,
      what: "runs over twelve seconds",
    });
    await second.expect(200, "DELETE", `/api/workflows/${id}/publish`);
    const unpublishedAt = Date.now();
    // What was in flight at the unpublish settles.
    await waitFor(async () => ((await runsOf()).every((run) => run.status === "succeeded") ? true : undefined), { timeoutMs: 30_000, what: "the runs to finish" });

    const runs = await runsOf();
    const slots = runs.map((run) => Date.parse(run.trigger.slot)).sort((left, right) => left - right);
    expect(new Set(slots).size, "no slot twice").toBe(slots.length);
    for (let index = 1; index < slots.length; index++) expect(slots[index]! - slots[index - 1]!, `after ${new Date(slots[index - 1]!).toISOString()}`).toBe(1000);
    expect(slots.at(-1)!).toBeLessThanOrEqual(unpublishedAt);

    // The slot rows say the same: one per slot, each with its run.
    const database = studios[0]!.openDatabase();
    try {
      const firings = await database.scheduleFiring.findMany({ where: { workflowId: id } });
      expect(firings.length).toBe(runs.length);
      expect(new Set(firings.map((firing) => firing.runId))).toEqual(new Set(runs.map((run) => run.id)));
      expect(firings.every((firing) => firing.outcome === "started")).toBe(true);
    } finally {
      await database.$disconnect();
    }
    // Which processes drove them is the queue's business; that several fired is what the logs show.
    const logs = [...studios.map((studio) => studio.logs()), worker!.logs()].join("\n");
    expect(logs).not.toMatch(/could not start a run/);
  }, 180_000);
});
