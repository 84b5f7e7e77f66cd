import { beforeAll, describe, expect, it } from "vitest";
import { RunListResponseSchema } from "@/lib/contracts/run-list";
import { WorkflowChoicesResponseSchema, WorkflowListResponseSchema } from "@/lib/contracts/workflow-list";
import type { ApiClient, Json } from "./api-client";
import { chain } from "./fixtures";
import { invitePerson } from "./people-fixtures";
import { setupStudioServer } from "./studio-server";

/**
 * The lists over HTTP: GET /api/runs and /api/workflows a page at a time by
 * cursor, searched and filtered, with totals; bad parameters refused with a
 * 422 naming each; and a person the workflow is not shared with sees neither
 * its rows nor its count (nor its name among the choices).
 */

const server = setupStudioServer();
let owner: ApiClient;
const simple = (name: string) => ({ name, nodes: [{ id: "in", kind: "input" }, { id: "out", kind: "output", value: "done" }], edges: chain("in", "out") });

/** Every page of `path` (which has its own query), following nextCursor; the rows and the totals the pages gave. */
async function everyPage(client: ApiClient, list: "runs" | "workflows", query: string): Promise<{ ids: string[]; totals: number[]; pages: number }> {
  const ids: string[] = [];
  const totals = new Set<number>();
  let cursor: string | null = null;
  let pages = 0;
  do {
    const body: Json = await client.expect(200, "GET", `/api/${list}?${query}${cursor ? `&cursor=${cursor}` : ""}`);
    const parsed = list === "runs" ? RunListResponseSchema.parse(body) : WorkflowListResponseSchema.parse(body);
    ids.push(...(list === "runs" ? body.runs : body.workflows).map((row: Json) => row.id as string));
    totals.add(parsed.page.total);
    cursor = parsed.page.nextCursor;
    pages += 1;
  } while (cursor !== null);
  return { ids, totals: [...totals], pages };
}

describe("lists over HTTP", () => {
  let secretId: string;
  const secretRuns: string[] = [];

  beforeAll(async () => {
    owner = server.client();
    secretId = (await owner.expect(201, "POST", "/api/workflows", simple("Secret 100% plans"))).workflow.id;
    for (let index = 0; index < 7; index += 1) secretRuns.push((await owner.startRun(secretId)).id);
    await Promise.all(secretRuns.map((id) => owner.waitForRun(id)));
  });

  it("pages a workflow's runs by cursor, newest first or oldest, each once, with the total", async () => {
    const newest = await everyPage(owner, "runs", `workflowId=${secretId}&limit=3`);
    expect(newest).toEqual({ ids: [...secretRuns].reverse(), totals: [7], pages: 3 });
    const oldest = await everyPage(owner, "runs", `workflowId=${secretId}&limit=2&direction=asc`);
    expect(oldest.ids).toEqual(secretRuns);
    // The items keep every field they had.
    const { runs } = await owner.expect(200, "GET", `/api/runs?workflowId=${secretId}&limit=1`);
    expect(runs[0]).toMatchObject({ id: secretRuns.at(-1), workflowName: "Secret 100% plans", status: "succeeded", version: 1, totalApprovals: 0, pendingApprovals: 0 });
  });

  it("searches names with % taken literally, filters by status, and pages workflows by name", async () => {
    expect((await everyPage(owner, "runs", `search=${encodeURIComponent("T 100%")}&status=succeeded`)).totals).toEqual([7]);
    expect((await everyPage(owner, "runs", `search=${encodeURIComponent("t 1_0")}`)).ids).toEqual([]);
    expect((await everyPage(owner, "runs", `workflowId=${secretId}&status=failed`)).totals).toEqual([0]);
    for (const name of ["Alpha list", "Beta list", "Gamma list"]) await owner.expect(201, "POST", "/api/workflows", simple(name));
    const byName = await owner.expect(200, "GET", "/api/workflows?search=list&sort=name&direction=asc&limit=2");
    expect(byName.workflows.map((workflow: Json) => workflow.name)).toEqual(["Alpha list", "Beta list"]);
    expect(byName.page.total).toBe(3);
    const rest = await owner.expect(200, "GET", `/api/workflows?search=list&sort=name&direction=asc&limit=2&cursor=${byName.page.nextCursor}`);
    expect(rest.workflows.map((workflow: Json) => workflow.name)).toEqual(["Gamma list"]);
    expect(rest.page.nextCursor).toBeNull();
    expect(rest.workflows[0]).toMatchObject({ latestVersion: 1, publishedVersion: null, lastRunStatus: null });
    const choices = WorkflowChoicesResponseSchema.parse(await owner.expect(200, "GET", "/api/workflows/choices?search=list&limit=2"));
    expect(choices).toEqual({ total: 3, workflows: [expect.objectContaining({ name: "Alpha list" }), expect.objectContaining({ name: "Beta list" })] });
  });

  it("refuses bad parameters with 422 naming each", async () => {
    const { page } = await owner.expect(200, "GET", "/api/workflows?limit=1");
    for (const [path, parameter] of [
      ["/api/runs?limit=0", "limit"],
      ["/api/runs?limit=201", "limit"],
      ["/api/runs?cursor=not-a-cursor", "cursor"],
      ["/api/runs?sort=duration", "sort"],
      ["/api/runs?direction=sideways", "direction"],
      ["/api/runs?status=lost", "status"],
      ["/api/runs?trigger=magic", "trigger"],
      ["/api/runs?from=yesterday", "from"],
      ["/api/runs?from=2026-12-05&to=2026-12-04", "to"],
      [`/api/runs?search=${"x".repeat(201)}`, "search"],
      ["/api/workflows?sort=size", "sort"],
      [`/api/workflows?sort=name&cursor=${page.nextCursor}`, "cursor"],
      ["/api/workflows/choices?limit=5000", "limit"],
    ] as const) {
      const response = await owner.get(path);
      expect(response.status, path).toBe(422);
      expect((response.body.issues as Json[]).map((issue) => issue.path), path).toEqual([parameter]);
      expect(response.body.error, path).toContain(parameter);
    }
  });

  it("shows a person none of the rows, counts or names of a workflow not shared with them", async () => {
    const outsider = await invitePerson(owner, "olive", "editor");
    const nothing = { ids: [], totals: [0], pages: 1 };
    expect(await everyPage(outsider.client, "runs", "")).toEqual(nothing);
    expect(await everyPage(outsider.client, "runs", `workflowId=${secretId}`)).toEqual(nothing);
    expect(await everyPage(outsider.client, "runs", "search=Secret")).toEqual(nothing);
    expect(await everyPage(outsider.client, "workflows", "")).toEqual(nothing);
    expect(await outsider.client.expect(200, "GET", "/api/workflows/choices?search=Secret")).toEqual({ workflows: [], total: 0 });

    // Their own workflow and run: counted, and nothing else.
    const own = (await outsider.client.expect(201, "POST", "/api/workflows", simple("Olive's own"))).workflow.id as string;
    const run = (await outsider.client.expect(201, "POST", `/api/workflows/${own}/runs`, { inputs: {} })).run.id as string;
    expect(await everyPage(outsider.client, "runs", "")).toEqual({ ids: [run], totals: [1], pages: 1 });
    expect(await everyPage(outsider.client, "workflows", "")).toEqual({ ids: [own], totals: [1], pages: 1 });
    expect((await outsider.client.expect(200, "GET", "/api/workflows/choices")).workflows.map((workflow: Json) => workflow.id)).toEqual([own]);

    // Shared with them: now they see it and its runs, counted.
    await owner.expect(200, "PUT", `/api/workflows/${secretId}/shares`, { shares: [{ subject: { personId: outsider.id }, role: "viewer" }] });
    expect((await everyPage(outsider.client, "runs", `workflowId=${secretId}&limit=5`)).totals).toEqual([7]);
    expect((await everyPage(outsider.client, "workflows", "")).totals).toEqual([2]);
  });
});
