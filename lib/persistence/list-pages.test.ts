import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZodError } from "zod";
import { ROLE_SCOPES } from "@/lib/contracts/roles";
import type { RunListQuery } from "@/lib/contracts/run-list";
import type { WorkflowListQuery } from "@/lib/contracts/workflow-list";
import { visibleWorkflows } from "@/lib/server/access/workflow-access";
import type { Principal } from "@/lib/server/access/principal";
import { DATABASE_PROVIDERS } from "./database-provider";
import { newId } from "./ids";
import { listRuns } from "./run-list";
import { openTempDatabase, type TempDatabase } from "./temp-database";
import { listWorkflowChoices, listWorkflows } from "./workflow-list";
import { createWorkflow } from "./workflow-store";

/**
 * Keyset paging of the runs and workflows lists on a real database (SQLite
 * and PostgreSQL): every row exactly once across pages, in both directions,
 * with many rows sharing a time; search with `%` and `_` taken literally;
 * filters; totals counted with the same filter; and a person who is not
 * shared a workflow sees neither its rows nor its count.
 */

const BASE = Date.parse("2026-03-01T00:00:00Z");
const at = (minutes: number) => new Date(BASE + minutes * 60_000);

describe.each(DATABASE_PROVIDERS)("list pages on %s", (provider) => {
  let temp: TempDatabase;
  const workflowIds: Record<string, string> = {};
  let outsider: Principal;
  const runIds: string[] = [];

  beforeAll(async () => {
    temp = await openTempDatabase({ provider });
    const { database } = temp;
    const ownerId = newId();
    const otherId = newId();
    await database.person.createMany({
      data: [
        { id: ownerId, login: "olga", displayName: "Olga", role: "owner" },
        { id: otherId, login: "otto", displayName: "Otto", role: "editor" },
      ],
    });
    // Names with LIKE's wildcards in them, and one that would match them as wildcards.
    const names = ["100% done", "1000 done", "snake_case", "snakeXcase", "Back\\slash", "Shared with Otto"];
    for (const [index, name] of names.entries()) {
      const workflow = await createWorkflow({ name, nodes: [{ id: "in", kind: "input", fields: [] }], edges: [] }, database, ownerId);
      workflowIds[name] = workflow.id;
      // Distinct change times, oldest first in the order above; two share one to check the id breaks the tie.
      await database.workflow.update({ where: { id: workflow.id }, data: { updatedAt: at(index === 5 ? 4 : index), createdAt: at(index) } });
    }
    await database.workflowShare.create({ data: { id: newId(), workflowId: workflowIds["Shared with Otto"]!, personId: otherId, role: "viewer", createdBy: ownerId } });
    outsider = { person: "Otto", personId: otherId, role: "editor", scopes: new Set(ROLE_SCOPES.editor), via: "session", tokenName: null, sessionId: null, authenticatedAt: Date.now(), firstOwner: false };

    // 60 runs over 4 workflows, five to a minute (ties), statuses and starts in turn.
    const statuses = ["succeeded", "failed", "running"] as const;
    const triggers = ["person", "webhook", "schedule", "for-each"] as const;
    const runWorkflows = ["100% done", "snake_case", "Shared with Otto", "1000 done"];
    for (let index = 0; index < 60; index += 1) {
      const workflowId = workflowIds[runWorkflows[index % 4]!]!;
      const version = await database.workflowVersion.findFirstOrThrow({ where: { workflowId } });
      // Ids in the order made (a ULID's random part does not order runs made in one millisecond).
      const id = newId(BASE + index);
      runIds.push(id);
      await database.run.create({
        data: { id, workflowId, versionId: version.id, status: statuses[index % 3]!, trigger: triggers[Math.floor(index / 4) % 4]!, inputs: "{}", createdAt: at(Math.floor(index / 5)), startedAt: at(Math.floor(index / 5)) },
      });
    }
  });
  afterAll(() => temp.close());

  /** Every page from the first, following nextCursor: the ids in order and the totals each page reported. */
  async function everyRunPage(query: Partial<RunListQuery>, principal: Principal | null = null) {
    const ids: string[] = [];
    const totals = new Set<number>();
    let cursor: string | undefined;
    let pages = 0;
    do {
      const { items, page } = await listRuns({ ...query, cursor }, principal ? visibleWorkflows(principal) : null, temp.database);
      ids.push(...items.map((run) => run.id));
      totals.add(page.total);
      cursor = page.nextCursor ?? undefined;
      pages += 1;
    } while (cursor !== undefined && pages < 100);
    return { ids, totals: [...totals], pages };
  }

  async function everyWorkflowPage(query: Partial<WorkflowListQuery>, principal: Principal | null = null) {
    const names: string[] = [];
    let cursor: string | undefined;
    let total = -1;
    do {
      const { items, page } = await listWorkflows({ ...query, cursor }, principal ? visibleWorkflows(principal) : null, temp.database);
      names.push(...items.map((workflow) => workflow.name));
      total = page.total;
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
    return { names, total };
  }

  it("pages through every run exactly once, newest first, with five runs to each time", async () => {
    const listed = runIds.filter((_, index) => Math.floor(index / 4) % 4 !== 3);
    const { ids, totals, pages } = await everyRunPage({ limit: 7 });
    expect(pages).toBe(Math.ceil(listed.length / 7));
    expect(new Set(ids).size).toBe(ids.length);
    // Ids sort by creation, and the runs were made in time order: newest first is the ids reversed.
    expect(ids).toEqual([...listed].reverse());
    expect(totals).toEqual([listed.length]);
  });

  it("pages oldest first the same way, and a page stays where it was when newer runs arrive", async () => {
    const listed = runIds.filter((_, index) => Math.floor(index / 4) % 4 !== 3);
    expect((await everyRunPage({ limit: 4, direction: "asc" })).ids).toEqual(listed);
    const first = await listRuns({ limit: 5 }, null, temp.database);
    const second = await listRuns({ limit: 5, cursor: first.page.nextCursor! }, null, temp.database);
    expect(second.items.map((run) => run.id)).toEqual([...listed].reverse().slice(5, 10));
  });

  it("filters runs by status, start, workflow and time, with totals counted the same way", async () => {
    const failed = await everyRunPage({ status: "failed", limit: 3 });
    const expected = runIds.filter((_, index) => index % 3 === 1 && Math.floor(index / 4) % 4 !== 3);
    expect(failed.ids).toEqual([...expected].reverse());
    expect(failed.totals).toEqual([expected.length]);

    const loopItems = await everyRunPage({ trigger: "for-each" });
    expect(loopItems.ids).toEqual(runIds.filter((_, index) => Math.floor(index / 4) % 4 === 3).reverse());

    const ofOne = await everyRunPage({ workflowId: workflowIds["snake_case"], trigger: "webhook" });
    expect(ofOne.ids).toEqual(runIds.filter((_, index) => index % 4 === 1 && Math.floor(index / 4) % 4 === 1).reverse());

    // Minutes 2 to 4: runs 10 to 24, less the loop items among them (12 to 15).
    const range = await everyRunPage({ from: at(2).toISOString(), to: at(4).toISOString(), limit: 4 });
    expect(range.ids).toEqual(runIds.slice(10, 25).filter((_, offset) => Math.floor((offset + 10) / 4) % 4 !== 3).reverse());
    // A day as `to` is the whole of it.
    expect((await everyRunPage({ from: "2026-03-01", to: "2026-03-01" })).totals).toEqual([48]);
    expect((await everyRunPage({ to: "2026-02-28" })).ids).toEqual([]);
  });

  it("finds runs by their workflow's name, % and _ taken literally", async () => {
    const percent = await everyRunPage({ search: "0% d", trigger: "person" });
    expect(percent.ids.length).toBeGreaterThan(0);
    const names = await listRuns({ search: "0% d", limit: 200 }, null, temp.database);
    expect(new Set(names.items.map((run) => run.workflowName))).toEqual(new Set(["100% done"]));
    const underscore = await listRuns({ search: "E_C", limit: 200 }, null, temp.database);
    expect(new Set(underscore.items.map((run) => run.workflowName))).toEqual(new Set(["snake_case"]));
    expect(underscore.page.total).toBe(underscore.items.length);
    // A search and a workflow that does not match it: nothing.
    expect((await listRuns({ search: "E_C", workflowId: workflowIds["100% done"] }, null, temp.database)).page.total).toBe(0);
  });

  it("pages workflows by change, name and making, both ways, and searches names literally", async () => {
    const byChange = await everyWorkflowPage({ limit: 2 });
    expect(byChange.total).toBe(6);
    // Two share the newest change time: the greater id (the one made later) first.
    expect(byChange.names).toEqual(["Shared with Otto", "Back\\slash", "snakeXcase", "snake_case", "1000 done", "100% done"]);
    expect((await everyWorkflowPage({ limit: 4, direction: "asc" })).names).toEqual([...byChange.names].reverse());
    const byName = (await everyWorkflowPage({ sort: "name", direction: "asc", limit: 1 })).names;
    expect(byName).toHaveLength(6);
    expect((await everyWorkflowPage({ sort: "name", direction: "desc", limit: 5 })).names).toEqual([...byName].reverse());
    expect((await everyWorkflowPage({ sort: "createdAt", limit: 3 })).names).toEqual(["Shared with Otto", "Back\\slash", "snakeXcase", "snake_case", "1000 done", "100% done"]);

    expect(await everyWorkflowPage({ search: "0%" })).toEqual({ names: ["100% done"], total: 1 });
    expect(await everyWorkflowPage({ search: "snake_" })).toEqual({ names: ["snake_case"], total: 1 });
    expect(await everyWorkflowPage({ search: "K\\S" })).toEqual({ names: ["Back\\slash"], total: 1 });
    expect(await everyWorkflowPage({ search: "%" })).toEqual({ names: ["100% done"], total: 1 });
    expect(await everyWorkflowPage({ search: "nothing like it" })).toEqual({ names: [], total: 0 });
  });

  it("gives each workflow its newest run's status", async () => {
    const { items } = await listWorkflows({ search: "snake" }, null, temp.database);
    const lastIndex = 57; // the last run of snake_case (index % 4 === 1)
    expect(items.map((workflow) => [workflow.name, workflow.lastRunStatus])).toEqual([
      ["snakeXcase", null],
      ["snake_case", ["succeeded", "failed", "running"][lastIndex % 3]],
    ]);
  });

  it("shows a person only the workflows shared with them, in rows, counts and choices", async () => {
    expect(await everyWorkflowPage({}, outsider)).toEqual({ names: ["Shared with Otto"], total: 1 });
    expect(await everyWorkflowPage({ search: "done" }, outsider)).toEqual({ names: [], total: 0 });
    const theirs = await everyRunPage({ limit: 3 }, outsider);
    const shared = runIds.filter((_, index) => index % 4 === 2 && Math.floor(index / 4) % 4 !== 3);
    expect(theirs.ids).toEqual([...shared].reverse());
    expect(theirs.totals).toEqual([shared.length]);
    expect((await listRuns({ workflowId: workflowIds["100% done"] }, visibleWorkflows(outsider), temp.database)).page).toEqual({ total: 0, nextCursor: null });
    expect(await listWorkflowChoices({}, visibleWorkflows(outsider), temp.database)).toEqual({ workflows: [expect.objectContaining({ name: "Shared with Otto" })], total: 1 });
    const all = await listWorkflowChoices({ limit: 2 }, null, temp.database);
    expect(all.total).toBe(6);
    expect(all.workflows).toHaveLength(2);
  });

  it("refuses a cursor made for another order, or not made here, naming it", async () => {
    const { page } = await listWorkflows({ limit: 1 }, null, temp.database);
    const refusal = (query: Partial<WorkflowListQuery>) => listWorkflows(query, null, temp.database).catch((error: unknown) => error);
    const otherOrder = await refusal({ cursor: page.nextCursor!, sort: "name" });
    expect(otherOrder).toBeInstanceOf(ZodError);
    expect((otherOrder as ZodError).issues[0]?.path).toEqual(["cursor"]);
    expect(((await refusal({ cursor: "bm90LWEtY3Vyc29y" })) as ZodError).issues[0]?.path).toEqual(["cursor"]);
    const runs = await listRuns({ limit: 1 }, null, temp.database);
    expect(((await listRuns({ cursor: runs.page.nextCursor!, direction: "asc" }, null, temp.database).catch((error: unknown) => error)) as ZodError).issues[0]?.path).toEqual(["cursor"]);
  });
});
