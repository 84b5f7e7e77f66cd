import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RetentionOverviewSchema } from "@/lib/contracts/retention";
import { ApiClient, conform, waitFor, type Json } from "./api-client";
import { chain, removeWorkFolders } from "./fixtures";
import { setupStudioServer } from "./studio-server";

/**
 * The retention settings over HTTP on the built server (SQLite, and PostgreSQL
 * where the pruning pass holds an advisory lock): 422 naming the field, the
 * overview with what a setting would remove, a workflow's own setting, the
 * security log, and the background job removing what the setting says soon
 * after it is saved.
 */

const server = setupStudioServer();
let api: ApiClient;

beforeAll(() => {
  api = server.client();
});

afterAll(() => {
  removeWorkFolders();
});

/** Finishes at once, asking nobody. */
function quick(name: string) {
  return {
    name,
    nodes: [
      { id: "in", kind: "input", fields: [] },
      { id: "out", kind: "output", value: "done" },
    ],
    edges: chain("in", "out"),
  };
}

const KEEP_EVERYTHING = { keepDays: null, keepLast: null, keepFailedDays: null };

describe("retention settings", () => {
  it("answers 422 naming the field for a setting that does not fit, and stores nothing", async () => {
    const cases: [unknown, string][] = [
      [{ ...KEEP_EVERYTHING, keepDays: 0 }, "keepDays"],
      [{ ...KEEP_EVERYTHING, keepDays: "ten" }, "keepDays"],
      [{ ...KEEP_EVERYTHING, keepLast: 1.5 }, "keepLast"],
      [{ ...KEEP_EVERYTHING, keepDays: 30, keepFailedDays: 7 }, "keepFailedDays"],
      [{ keepDays: 30, keepLast: null }, "keepFailedDays"],
    ];
    for (const [body, field] of cases) {
      const response = await api.request("PUT", "/api/settings/retention", body);
      expect(response.status, response.text).toBe(422);
      expect((response.body.issues as Json[]).map((issue) => issue.path), response.text).toContain(field);
      expect(response.body.error).toContain(field);
    }
    const overview = await api.expect(200, "GET", "/api/settings/retention");
    conform(RetentionOverviewSchema, overview, "GET /api/settings/retention");
    expect(overview).toMatchObject({ policy: KEEP_EVERYTHING, workflows: [], wouldRemove: 0 });
    expect(overview.databaseBytes).toBeGreaterThan(0);
  });

  it("a workflow's own setting, its 404 for an unknown workflow, the security log, and the pruning that follows a saved setting", async () => {
    const kept = await api.createWorkflow(quick("Kept whole"));
    const pruned = await api.createWorkflow(quick("Pruned to one"));
    const runs: Record<string, string[]> = { [kept.id]: [], [pruned.id]: [] };
    for (const workflow of [kept, pruned]) {
      for (let index = 0; index < 3; index += 1) {
        const run = await api.startRun(workflow.id, {});
        expect((await api.waitForRun(run.id)).status).toBe("succeeded");
        runs[workflow.id]!.push(run.id);
      }
    }

    await api.expect(404, "PUT", "/api/workflows/no-such-workflow/retention", { ...KEEP_EVERYTHING, keepLast: 1 });
    await api.expect(404, "DELETE", `/api/workflows/${kept.id}/retention`);
    // The studio keeps each workflow's newest run; "Kept whole" has a setting of its own that keeps everything.
    await api.expect(200, "PUT", `/api/workflows/${kept.id}/retention`, KEEP_EVERYTHING);
    const overview = await api.expect(200, "PUT", "/api/settings/retention", { ...KEEP_EVERYTHING, keepLast: 1 });
    conform(RetentionOverviewSchema, overview, "PUT /api/settings/retention");
    expect(overview.policy).toEqual({ ...KEEP_EVERYTHING, keepLast: 1 });
    expect(overview.workflows).toEqual([{ workflowId: kept.id, workflowName: "Kept whole", policy: KEEP_EVERYTHING }]);

    // A saved setting is applied soon, in the background: the two older runs of "Pruned to one" go.
    const listed = async (workflowId: string) => ((await api.expect(200, "GET", `/api/runs?workflowId=${workflowId}`)).runs as Json[]).map((run) => run.id);
    await waitFor(async () => ((await listed(pruned.id)).length === 1 ? true : undefined), { timeoutMs: 60_000, what: "retention to remove the older runs" });
    expect(await listed(pruned.id)).toEqual([runs[pruned.id]![2]]);
    expect((await listed(kept.id)).sort()).toEqual([...runs[kept.id]!].sort());
    expect((await api.expect(200, "GET", "/api/settings/retention")).wouldRemove).toBe(0);

    const entries: Json[] = (await api.expect(200, "GET", "/api/audit")).entries;
    const changes = entries.filter((entry) => entry.action === "retention-changed");
    expect(changes.map((entry) => entry.target)).toEqual([null, kept.id]);
    expect(changes[0]!.detail).toMatchObject({ scope: "studio", policy: { keepLast: 1 } });
    // Each names who changed it, by id (the token is the first owner's).
    const me = (await api.expect(200, "GET", "/api/me")).person.id;
    expect(changes.map((entry) => entry.actorId)).toEqual([me, me]);

    // Without its own setting, "Kept whole" follows the studio's: its two older runs would go.
    const cleared = await api.expect(200, "DELETE", `/api/workflows/${kept.id}/retention`);
    expect(cleared.workflows).toEqual([]);
    await waitFor(async () => ((await listed(kept.id)).length === 1 ? true : undefined), { timeoutMs: 60_000, what: "retention to follow the studio's setting" });
  });
});
