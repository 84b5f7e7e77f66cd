import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiClient, Json } from "./api-client";
import { removeWorkFolders, workFolder, writeFileWorkflow } from "./fixtures";
import { setupStudioServer } from "./studio-server";

/**
 * "Always allow" over HTTP: the grant a write's decision gives is listed on
 * the workflow with who gave it and until when (the policy's days, else 30);
 * later writes in that folder go ahead without asking while it lasts; one that
 * ran out, or was revoked, asks again; a policy that needs two people gives
 * none. Revoking is in the security log.
 */

const server = setupStudioServer();
let api: ApiClient;
let folder: string;

const DAY_MS = 24 * 60 * 60_000;

/** A write workflow (default mode: the write asks) under `approvals`; its id. */
async function writeWorkflow(name: string, approvals?: Json): Promise<string> {
  return (await api.expect(201, "POST", "/api/workflows", { ...writeFileWorkflow(folder, { name }), ...(approvals ? { approvals } : {}) })).workflow.id as string;
}

async function start(workflowId: string, file: string): Promise<string> {
  return (await api.expect(201, "POST", `/api/workflows/${workflowId}/runs`, { inputs: { text: `text of ${file}`, file } })).run.id as string;
}

/** Starts a run writing `file` and says whether it asked (then approves it once) or wrote at once. */
async function writeAsks(workflowId: string, file: string): Promise<boolean> {
  const runId = await start(workflowId, file);
  const settled = await api.waitForRun(runId, ["succeeded", "failed", "cancelled", "awaiting_input"]);
  if (settled.status === "awaiting_input") {
    const approval = await api.waitForApproval(runId);
    await api.expect(200, "POST", `/api/approvals/${approval.id}`, { decision: "once", digest: approval.digest });
    await api.waitForRun(runId);
    return true;
  }
  expect(settled.status, settled.error).toBe("succeeded");
  return false;
}

const grantsOf = async (workflowId: string) => (await api.expect(200, "GET", `/api/workflows/${workflowId}/grants`)) as { grants: Json[]; mayRevoke: boolean };

describe("always allow", () => {
  beforeAll(() => {
    api = server.client();
    folder = workFolder("studio-grants-");
  });
  afterAll(() => removeWorkFolders());

  it("lists the grant with who gave it and its 30 days, lets later writes in the folder through, and asks again once revoked", async () => {
    const workflowId = await writeWorkflow("Reports");
    const runId = await start(workflowId, "reports/first.txt");
    const approval = await api.waitForApproval(runId);
    const before = Date.now();
    const decided = (await api.expect(200, "POST", `/api/approvals/${approval.id}`, { decision: "always", digest: approval.digest })).approval;
    expect((await api.waitForRun(runId)).status).toBe("succeeded");
    expect(readFileSync(path.join(folder, "reports/first.txt"), "utf8")).toBe("text of reports/first.txt");

    const listed = await grantsOf(workflowId);
    expect(listed.mayRevoke).toBe(true);
    expect(listed.grants).toHaveLength(1);
    const grant = listed.grants[0]!;
    expect(decided.decidedBy.name).toBeTruthy();
    expect(grant).toMatchObject({ pattern: "reports/**", runId, createdBy: decided.decidedBy.name, createdById: decided.decidedBy.personId });
    const days = (Date.parse(grant.expiresAt) - before) / DAY_MS;
    expect(days).toBeGreaterThan(29.99);
    expect(days).toBeLessThan(30.01);

    // In the folder: no question. Elsewhere: it asks.
    expect(await writeAsks(workflowId, "reports/second.txt")).toBe(false);
    expect(existsSync(path.join(folder, "reports/second.txt"))).toBe(true);
    expect(await writeAsks(workflowId, "elsewhere.txt")).toBe(true);

    const revoked = await api.expect(200, "DELETE", `/api/workflows/${workflowId}/grants/${grant.id}`);
    expect(revoked.revoked).toMatchObject({ id: grant.id, pattern: "reports/**" });
    expect((await grantsOf(workflowId)).grants).toEqual([]);
    const log = await api.expect(200, "GET", "/api/audit?action=grant-revoked");
    expect(log.entries[0]).toMatchObject({ action: "grant-revoked", target: workflowId, detail: expect.objectContaining({ grant: grant.id, pattern: "reports/**" }) });
    expect(await writeAsks(workflowId, "reports/third.txt")).toBe(true);

    // Revoked twice, or a grant of another workflow: nothing there.
    const again = await api.delete(`/api/workflows/${workflowId}/grants/${grant.id}`);
    expect(again.status).toBe(404);
  });

  it("lasts the days the policy says, and a grant that ran out is listed as such and asks again", async () => {
    const workflowId = await writeWorkflow("Short grants", { kinds: { write: { approvers: [], required: 1, alwaysAllowDays: 2 } } });
    const runId = await start(workflowId, "logs/one.txt");
    const approval = await api.waitForApproval(runId);
    await api.expect(200, "POST", `/api/approvals/${approval.id}`, { decision: "always", digest: approval.digest });
    await api.waitForRun(runId);
    const [grant] = (await grantsOf(workflowId)).grants;
    const days = (Date.parse(grant!.expiresAt) - Date.now()) / DAY_MS;
    expect(days).toBeGreaterThan(1.99);
    expect(days).toBeLessThanOrEqual(2);
    expect(await writeAsks(workflowId, "logs/two.txt")).toBe(false);

    // Two days later, as far as the grant knows.
    const database = server.openDatabase();
    try {
      await database.grant.update({ where: { id: grant!.id }, data: { expiresAt: new Date(Date.now() - 1_000) } });
    } finally {
      await database.$disconnect();
    }
    expect(await writeAsks(workflowId, "logs/three.txt")).toBe(true);
    expect((await grantsOf(workflowId)).grants.map((each) => each.id)).toEqual([grant!.id]);
  });

  it("is refused under a policy that needs two people, naming why, and nothing is decided", async () => {
    const workflowId = await writeWorkflow("Two people", { kinds: { write: { approvers: [], required: 2, excludeStarter: false } } });
    const runId = await start(workflowId, "guarded/one.txt");
    const approval = await api.waitForApproval(runId);
    const refused = await api.post(`/api/approvals/${approval.id}`, { decision: "always", digest: approval.digest });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatch(/needs 2 different people: "Always allow" would let later writes skip them/);
    expect(refused.body.issues).toEqual([expect.objectContaining({ path: "decision" })]);
    const still = await api.expect(200, "GET", `/api/approvals/${approval.id}`);
    expect(still.approval.status).toBe("pending");
    expect(still.approval.votes).toEqual([]);
    expect((await grantsOf(workflowId)).grants).toEqual([]);
  });

  it("refuses a policy's days outside 1 to 365 with the field named", async () => {
    const response = await api.post("/api/workflows", { ...writeFileWorkflow(folder, { name: "Bad days" }), approvals: { default: { approvers: [], required: 1, alwaysAllowDays: 400 } } });
    expect(response.status).toBe(422);
    expect(JSON.stringify(response.body.issues)).toMatch(/alwaysAllowDays/);
    expect(JSON.stringify(response.body.issues)).toMatch(/at most 365 days/);
  });
});
