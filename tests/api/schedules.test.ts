import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor, type ApiClient, type Json } from "./api-client";
import { BYPASS, edge, removeWorkFolders, shellNode, workFolder } from "./fixtures";
import { setupStudioServer } from "./studio-server";

/**
 * Schedule triggers through the real server, with an every-second expression
 * so slots come quickly. Everything waits for runs to appear; the only waits on
 * the clock are for slots to pass (a slot is a time), and timing checks leave
 * seconds of slack for a loaded machine.
 */

const server = setupStudioServer();
let api: ApiClient;

beforeAll(() => {
  api = server.client();
});

afterAll(() => {
  removeWorkFolders();
});

const EVERY_SECOND = "* * * * * *";
/** How late a slot's run may be created on a loaded machine. */
const ON_TIME_MS = 3_000;

/** Schedule "tick" → (a slow step) → output of the slot it stands for. */
function scheduleWorkflow(name: string, schedule: Record<string, unknown>, slowSeconds?: number) {
  const tick = { id: "tick", kind: "schedule", form: "cron", cron: EVERY_SECOND, timezone: "UTC", overlap: "allow", ...schedule };
  const out = { id: "out", kind: "output", value: "{{ nodes.tick.data.slot }}" };
  if (slowSeconds === undefined) return { name, nodes: [tick, out], edges: [edge("tick", "out")] };
  const slow = shellNode("slow", workFolder(), `sleep ${slowSeconds}`);
  return { name, ...BYPASS, nodes: [tick, slow, out], edges: [edge("tick", "slow"), edge("slow", "out")] };
}

async function createAndPublish(definition: Json): Promise<string> {
  const { id } = await api.createWorkflow(definition);
  await api.expect(200, "POST", `/api/workflows/${id}/publish`, {});
  return id;
}

async function runsOf(workflowId: string): Promise<Json[]> {
  const runs: Json[] = await api.everyRow("runs", `workflowId=${workflowId}`);
  return runs.sort((left, right) => Date.parse(left.trigger.slot) - Date.parse(right.trigger.slot));
}

/** Waits until `check` holds for the workflow's runs, and returns them. */
function runsWhen(workflowId: string, check: (runs: Json[]) => boolean, what: string, timeoutMs = 30_000): Promise<Json[]> {
  let last: Json[] = [];
  return waitFor(
    async () => {
      last = await runsOf(workflowId);
      return check(last) ? last : undefined;
    },
    { timeoutMs, intervalMs: 200, what: () => `${what} (runs so far: ${last.map((run) => `${run.trigger.slot} ${run.status}`).join(", ")})\n${server.logs().slice(-3000)}` },
  );
}

const finished = (run: Json) => ["succeeded", "failed", "cancelled"].includes(run.status);
const slotsOf = (runs: Json[]) => runs.map((run) => run.trigger.slot as string);
const ms = (time: string) => Date.parse(time);

/** Each slot at most once, and no slot between the first and the last left out. */
function expectConsecutiveSeconds(slots: string[]): void {
  expect(new Set(slots).size, `no slot twice: ${slots.join(", ")}`).toBe(slots.length);
  for (let index = 1; index < slots.length; index++) expect(ms(slots[index]!) - ms(slots[index - 1]!), `after ${slots[index - 1]}`).toBe(1000);
}

/** No run of the schedule started before the previous one had finished. */
function expectNoOverlap(runs: Json[]): void {
  const started = runs.filter((run) => run.startedAt).sort((left, right) => ms(left.createdAt) - ms(right.createdAt));
  for (let index = 1; index < started.length; index++) {
    const previous = started[index - 1]!;
    expect(previous.finishedAt, `run for ${previous.trigger.slot} had finished when the next started`).not.toBeNull();
    // The next run is created after the previous one's end is stored; a few ms of slack for the times being taken apart.
    expect(ms(started[index]!.createdAt)).toBeGreaterThanOrEqual(ms(previous.finishedAt) - 50);
  }
}

async function countsOf(workflowId: string): Promise<Json> {
  const answer = await api.expect(200, "GET", `/api/workflows/${workflowId}/publish`);
  return answer.schedules.find((counts: Json) => counts.nodeId === "tick") ?? { started: 0, skipped: 0, queued: 0, dropped: 0 };
}

// Two tests stop and restart the server and wait out real slots: on a loaded 2-core machine that takes well
// over the default 30 s, so the block allows more; every wait inside is for an event or a slot, not a guess.
describe("schedule triggers", { timeout: 120_000 }, () => {
  it("checks the expression and the zone as field errors, and refuses to publish an invalid schedule", async () => {
    const check = async (schedule: Record<string, unknown>) =>
      (await api.expect(200, "POST", "/api/workflows/validate", scheduleWorkflow("Checked", schedule))).problems.filter((problem: Json) => problem.nodeId === "tick");
    expect(await check({ cron: "61 * * * *" })).toEqual([expect.objectContaining({ field: "cron", severity: "error", message: expect.stringContaining("minute") })]);
    expect(await check({ cron: "* * * *" })).toEqual([expect.objectContaining({ field: "cron", message: expect.stringContaining("five fields") })]);
    expect(await check({ timezone: "Moon/Tranquility" })).toEqual([expect.objectContaining({ field: "timezone", message: expect.stringContaining("IANA") })]);
    expect(await check({ form: "every", everyMinutes: 5, cron: "not read" })).toEqual([]);

    const required = scheduleWorkflow("Needs an input", {});
    const withInput = { ...required, nodes: [{ id: "in", kind: "input", fields: [{ name: "city", type: "string", required: true }] }, ...required.nodes], edges: [...required.edges, edge("in", "out")] };
    const problems = (await api.expect(200, "POST", "/api/workflows/validate", withInput)).problems;
    expect(problems).toEqual(expect.arrayContaining([expect.objectContaining({ nodeId: "tick", message: expect.stringContaining('"city" is required and has no default') })]));

    const { id } = await api.createWorkflow(scheduleWorkflow("Invalid", { cron: "61 * * * *" }));
    await api.expect(422, "POST", `/api/workflows/${id}/publish`, {});
    expect(await runsOf(id)).toEqual([]);
  });

  it("a published every-second schedule fires on time, once per slot, says so on the run, and stops when unpublished", async () => {
    const id = await createAndPublish(scheduleWorkflow("Every second", {}));
    const runs = await runsWhen(id, (runs) => runs.filter(finished).length >= 4, "four runs of the schedule");
    expectConsecutiveSeconds(slotsOf(runs));
    for (const run of runs) {
      expect(run.trigger).toMatchObject({ kind: "schedule", nodeId: "tick" });
      expect(run.trigger.missedSlots).toBeUndefined();
      expect(ms(run.createdAt) - ms(run.trigger.slot), `run for ${run.trigger.slot} created at ${run.createdAt}`).toBeGreaterThanOrEqual(0);
      expect(ms(run.createdAt) - ms(run.trigger.slot)).toBeLessThan(ON_TIME_MS);
    }
    const done = runs.find((run) => run.status === "succeeded")!;
    const detail = (await api.expect(200, "GET", `/api/runs/${done.id}`)).run;
    expect(detail.trigger).toEqual({ kind: "schedule", nodeId: "tick", slot: done.trigger.slot });
    expect(detail.output).toBe(done.trigger.slot);
    expect(detail.steps.find((step: Json) => step.nodeId === "tick").output.data).toEqual({ slot: done.trigger.slot, missedSlots: 0, timezone: "UTC" });

    await api.expect(200, "DELETE", `/api/workflows/${id}/publish`);
    const unpublishedAt = Date.now();
    // Three slots pass: none of them fires.
    await waitFor(() => (Date.now() > unpublishedAt + 3_000 ? true : undefined), { timeoutMs: 10_000, what: "three seconds to pass" });
    const after = await runsOf(id);
    expect(after.filter((run) => ms(run.trigger.slot) > unpublishedAt)).toEqual([]);
    expectConsecutiveSeconds(slotsOf(after));
  });

  it("overlap skip: a slot that comes while the previous run is still going starts nothing, and is counted", async () => {
    const id = await createAndPublish(scheduleWorkflow("Slow, skipping", { overlap: "skip" }, 2.5));
    const runs = await runsWhen(id, (runs) => runs.filter(finished).length >= 2, "two runs of the slow schedule", 45_000);
    await api.expect(200, "DELETE", `/api/workflows/${id}/publish`);
    expectNoOverlap(runs);
    expect(runs.every((run) => run.status !== "failed")).toBe(true);
    const counts = await countsOf(id);
    // A run of 2.5 s holds at least two slots each time.
    expect(counts.skipped).toBeGreaterThanOrEqual(2);
    expect(counts.queued).toBe(0);
  });

  it("overlap queue: slots wait for the previous run and start in order when it ends, none lost, none twice", async () => {
    const id = await createAndPublish(scheduleWorkflow("Slow, queueing", { overlap: "queue" }, 1.5));
    const runs = await runsWhen(id, (runs) => runs.filter(finished).length >= 3, "three runs of the queueing schedule", 45_000);
    expectNoOverlap(runs);
    // Every slot from the first is a run, however long it waited.
    expectConsecutiveSeconds(slotsOf(runs));
    const waited = runs.filter(finished).slice(1);
    expect(waited.some((run) => ms(run.createdAt) - ms(run.trigger.slot) > 1_000), "a queued slot started after its time").toBe(true);
    expect((await countsOf(id)).queued).toBeGreaterThanOrEqual(1);

    await api.expect(200, "DELETE", `/api/workflows/${id}/publish`);
    const unpublishedAt = Date.now();
    expect((await countsOf(id)).queued).toBe(0);
    // The run going at the unpublish ends; nothing queued starts after it.
    const settled = await runsWhen(id, (runs) => runs.every(finished), "the last queued run to finish", 30_000);
    await waitFor(() => (Date.now() > unpublishedAt + 2_500 ? true : undefined), { timeoutMs: 10_000, what: "slots to pass" });
    const after = await runsOf(id);
    expect(after.length).toBe(settled.length);
    expect(after.filter((run) => ms(run.createdAt) > unpublishedAt + 1_000)).toEqual([]);
  });

  it("overlap queue survives a restart: slots queued before it start after it, oldest first", async () => {
    const id = await createAndPublish(scheduleWorkflow("Queue across a restart", { overlap: "queue" }, 3));
    await waitFor(async () => ((await countsOf(id)).queued >= 2 ? true : undefined), { timeoutMs: 30_000, intervalMs: 200, what: "two queued slots" });
    await server.kill("SIGTERM");
    const database = server.openDatabase();
    let queued: string[];
    try {
      queued = (await database.scheduleFiring.findMany({ where: { workflowId: id, outcome: "queued" }, orderBy: { slot: "asc" } })).map((firing) => firing.slot.toISOString());
    } finally {
      await database.$disconnect();
    }
    expect(queued.length).toBeGreaterThanOrEqual(2);
    await server.restart();
    const runs = await runsWhen(id, (runs) => runs.some((run) => run.trigger.slot === queued[0] && run.startedAt), `the run of the queued slot ${queued[0]}`, 45_000);
    await api.expect(200, "DELETE", `/api/workflows/${id}/publish`);
    expect(runs.filter((run) => run.trigger.slot === queued[0])).toHaveLength(1);
    expect(new Set(slotsOf(runs)).size).toBe(runs.length);
  });

  it("missed slots across a restart: skip fires none of them; run-once fires one run standing for all of them", async () => {
    const skipping = await createAndPublish(scheduleWorkflow("Missed: skip", { missed: "skip" }));
    const once = await createAndPublish(scheduleWorkflow("Missed: run once", { missed: "run-once" }));
    await runsWhen(skipping, (runs) => runs.length >= 2, "two runs before the restart");
    await runsWhen(once, (runs) => runs.length >= 2, "two runs before the restart");

    await server.kill("SIGTERM");
    const stoppedAt = Date.now();
    // The studio stays down while four slots pass.
    await waitFor(() => (Date.now() > stoppedAt + 4_000 ? true : undefined), { timeoutMs: 10_000, what: "four slots to pass" });
    await server.restart();

    // What the stopped studio had fired: the runs created before it stopped.
    const firedBefore = async (workflowId: string) => (await runsOf(workflowId)).filter((run) => ms(run.createdAt) <= stoppedAt);
    const before = { skipping: await firedBefore(skipping), once: await firedBefore(once) };
    const lastBefore = (runs: Json[]) => ms(runs.at(-1)!.trigger.slot);
    const onceRuns = await runsWhen(once, (runs) => runs.filter((run) => ms(run.trigger.slot) > lastBefore(before.once)).length >= 3, "runs of the run-once schedule after the restart");
    const catchUps = onceRuns.filter((run) => run.trigger.missedSlots !== undefined);
    expect(catchUps).toHaveLength(1);
    const catchUp = catchUps[0]!;
    // At least the slots of the four seconds down, less the grace of the newest two.
    expect(catchUp.trigger.missedSlots).toBeGreaterThanOrEqual(2);
    expect(ms(catchUp.trigger.slot) - lastBefore(before.once)).toBe(catchUp.trigger.missedSlots * 1000);
    const detail = (await api.expect(200, "GET", `/api/runs/${catchUp.id}`)).run;
    expect(detail.trigger).toEqual({ kind: "schedule", nodeId: "tick", slot: catchUp.trigger.slot, missedSlots: catchUp.trigger.missedSlots });
    // From the catch-up on, every slot once.
    expectConsecutiveSeconds(slotsOf(onceRuns.filter((run) => ms(run.trigger.slot) >= ms(catchUp.trigger.slot))));
    expect(new Set(slotsOf(onceRuns)).size).toBe(onceRuns.length);

    const skipRuns = await runsWhen(skipping, (runs) => runs.filter((run) => ms(run.trigger.slot) > lastBefore(before.skipping)).length >= 2, "runs of the skipping schedule after the restart");
    const afterRestart = skipRuns.filter((run) => ms(run.trigger.slot) > lastBefore(before.skipping));
    expect(afterRestart.every((run) => run.trigger.missedSlots === undefined)).toBe(true);
    // The slots of the first two seconds down were missed, and skipped; the restarted studio went on from later ones.
    expect(ms(afterRestart[0]!.trigger.slot)).toBeGreaterThan(stoppedAt + 2_000);
    expect(new Set(slotsOf(skipRuns)).size).toBe(skipRuns.length);

    await api.expect(200, "DELETE", `/api/workflows/${skipping}/publish`);
    await api.expect(200, "DELETE", `/api/workflows/${once}/publish`);
  });
});
