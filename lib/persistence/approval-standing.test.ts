import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordAudit } from "./audit-store";
import { DATABASE_PROVIDERS } from "./database-provider";
import { createRun } from "./run-queries";
import { PrismaRunStore } from "./run-store";
import { openTempDatabase, type TempDatabase } from "./temp-database";
import { createWorkflow } from "./workflow-store";

/** What the engine reads to tell an approval's story once (votes, escalation, notifications, views), on both databases. */
describe.each(DATABASE_PROVIDERS)("an approval's standing and what its run already said, on %s", (provider) => {
  let temp: TempDatabase;
  let store: PrismaRunStore;
  let runId: string;

  beforeAll(async () => {
    temp = await openTempDatabase({ provider });
    store = new PrismaRunStore(temp.database);
    const workflow = await createWorkflow({ name: "standing", mode: "bypass", nodes: [{ id: "a", kind: "tool", tool: "noop" }], edges: [] }, temp.database);
    runId = (await createRun(workflow.id, {}, {}, temp.database)).runId;
  });

  afterAll(() => temp.close());

  it("reads the votes, the escalation, the notifications that arrived or failed for good, and the views, each with its time", async () => {
    const { approval } = await store.openApproval({
      runId,
      nodeId: "a",
      key: "a:0",
      kind: "shell",
      tool: "run_command",
      operation: "run",
      arguments: { command: "ls" },
      preview: "ls",
      digest: "d",
    });
    const person = await temp.database.person.create({ data: { id: "p-bo", login: "bo@example.test", displayName: "Bo", role: "approver" } });
    await temp.database.approvalVote.create({ data: { id: "v1", approvalId: approval.id, personId: person.id, name: "Bo", approve: true, createdAt: new Date("2026-01-01T00:00:01Z") } });
    await temp.database.approval.update({ where: { id: approval.id }, data: { escalatedAt: new Date("2026-01-01T00:00:02Z") } });
    const notification = { approvalId: approval.id, personId: person.id, channel: "email", address: "bo@example.test", attempts: 1 };
    await temp.database.approvalNotification.createMany({
      data: [
        { ...notification, id: "n-sent", round: "requested", status: "sent", sentAt: new Date("2026-01-01T00:00:03Z") },
        { ...notification, id: "n-trying", round: "reminder", status: "pending", lastError: "451 later" },
      ],
    });
    await recordAudit({ actor: "Bo", actorId: person.id, action: "approval-viewed", target: approval.id }, temp.database);
    await recordAudit({ actor: "Bo", actorId: person.id, action: "approval-viewed", target: "another-approval" }, temp.database);

    const standing = await store.approvalStanding(approval.id);
    expect(standing).toMatchObject({
      votes: [{ personId: "p-bo", name: "Bo", approve: true, at: "2026-01-01T00:00:01.000Z" }],
      escalatedAt: "2026-01-01T00:00:02.000Z",
      // The one still being tried is not news yet.
      notifications: [{ id: "n-sent", channel: "email", to: "Bo", address: "bo@example.test", status: "sent", at: "2026-01-01T00:00:03.000Z" }],
      views: [{ by: "Bo" }],
    });
    expect(standing!.views).toHaveLength(1);
    expect(await store.approvalStanding("no-such-approval")).toBeNull();
  });

  it("knows which of them the run's stored events already told", async () => {
    const createdAt = "2026-01-01T00:00:00.000Z";
    const event = (seq: number, type: string, payload: unknown) => ({ runId, seq, type, nodeId: "a", payload: JSON.stringify(payload), createdAt: new Date(createdAt) });
    await temp.database.runEvent.createMany({
      data: [
        event(1, "approval-voted", { approvalId: "ap", by: "Bo", approvals: 1, required: 3 }),
        event(2, "approval-voted", { approvalId: "ap", by: "Cy", approvals: 2, required: 3 }),
        event(3, "approval-escalated", { approvalId: "ap" }),
        event(4, "approval-notified", { approvalId: "ap", notification: { id: "n-sent" } }),
        event(5, "approval-viewed", { approvalId: "ap", viewId: "view-1", by: "Bo" }),
        event(6, "node-progress", { message: "not an approval's" }),
      ],
    });
    const announced = await store.announcedApprovals(runId);
    expect(announced.voted).toEqual(new Map([["ap", 2]]));
    expect(announced.escalated).toEqual(new Set(["ap"]));
    expect(announced.notified).toEqual(new Set(["n-sent"]));
    expect(announced.viewed).toEqual(new Set(["view-1"]));
  });
});
