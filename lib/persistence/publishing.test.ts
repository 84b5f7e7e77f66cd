import { afterAll, describe, expect, it } from "vitest";
import type { WorkflowDefinitionInput } from "@/lib/workflow/definition";
import type { DatabaseProvider } from "./database-provider";
import { findLiveWebhook, forgetOldDeliveries, IDEMPOTENCY_WINDOW_MS, publishVersion, runOfDelivery, unpublish } from "./publishing";
import { findRunnableVersion, IdempotencyKeyTaken, insertRun } from "./run-queries";
import { openTempDatabase, type TempDatabase } from "./temp-database";
import { createWorkflow, saveWorkflow } from "./workflow-store";

const temps: TempDatabase[] = [];
afterAll(async () => {
  for (const temp of temps) await temp.close();
});

const HOOK = "publishingtesthook0001";

function hookWorkflow(output: string): WorkflowDefinitionInput {
  return {
    name: "published",
    nodes: [
      { id: "hook", kind: "webhook", hookId: HOOK, authentication: "none" },
      { id: "out", kind: "output", value: output },
    ],
    edges: [{ id: "e", source: "hook", target: "out" }],
  };
}

// The same behaviour on both databases: SQLite takes prepared statements, PostgreSQL Prisma's queries.
describe.each<DatabaseProvider>(["sqlite", "postgresql"])("publishing on %s", (provider) => {
  it("finds the published version's webhook, not the newest draft's, and nothing once unpublished", async () => {
    const temp = await openTempDatabase({ provider });
    temps.push(temp);
    const workflow = await createWorkflow(hookWorkflow("first"), temp.database);
    expect(await findLiveWebhook(HOOK, temp.database)).toBeNull();
    await publishVersion(workflow.id, undefined, temp.database);
    await saveWorkflow(workflow.id, hookWorkflow("second"), {}, temp.database);
    // Twice: the second read takes the remembered definition instead of reading its text again.
    for (let read = 0; read < 2; read += 1) {
      const live = await findLiveWebhook(HOOK, temp.database);
      expect(live).toMatchObject({ workflowId: workflow.id, nodeId: "hook", version: 1, workflowName: "published" });
      expect(live!.definition.nodes.find((node) => node.id === "out")).toMatchObject({ value: "first" });
    }
    await unpublish(workflow.id, temp.database);
    expect(await findLiveWebhook(HOOK, temp.database)).toBeNull();
  });

  it("answers a key with its run for 24 hours, refuses a second run for it, and forgets it afterwards", async () => {
    const temp = await openTempDatabase({ provider });
    temps.push(temp);
    const workflow = await createWorkflow(hookWorkflow("x"), temp.database);
    const version = await findRunnableVersion(workflow.id, undefined, temp.database);
    const delivery = { workflowId: workflow.id, hookId: HOOK, idempotencyKey: "delivery-1" };
    const run = await insertRun(version, {}, temp.database, { delivery });
    await expect(insertRun(version, {}, temp.database, { delivery })).rejects.toSatisfy(IdempotencyKeyTaken.isInstance);
    expect(await temp.database.run.count()).toBe(1);

    expect(await runOfDelivery(HOOK, "delivery-1", temp.database)).toBe(run.id);
    expect(await runOfDelivery(HOOK, "another", temp.database)).toBeNull();
    const later = Date.now() + IDEMPOTENCY_WINDOW_MS + 1000;
    expect(await forgetOldDeliveries(temp.database, Date.now())).toBe(0);
    expect(await runOfDelivery(HOOK, "delivery-1", temp.database, later)).toBeNull();
    expect(await temp.database.webhookDelivery.count()).toBe(0);

    await insertRun(version, {}, temp.database, { delivery: { ...delivery, idempotencyKey: "delivery-2" } });
    expect(await forgetOldDeliveries(temp.database, later)).toBe(1);
  });
});
