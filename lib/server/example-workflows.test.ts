import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultPool, NO_SECRETS } from "@/lib/tools";
import { deleteWorkflow, listWorkflows } from "@/lib/persistence";
import { openTempDatabase, type TempDatabase } from "@/lib/persistence/temp-database";
import { validateWorkflow } from "@/lib/workflow/validate";
import { exampleAgentWorkflow, seedExampleWorkflows } from "./example-workflows";

let temp: TempDatabase;

beforeAll(async () => {
  temp = await openTempDatabase();
});
afterAll(async () => {
  await temp.close();
});

describe("the example workflows", () => {
  it("are created on a first start, once: deleting them does not bring them back", async () => {
    expect(await seedExampleWorkflows(temp.database, temp.folder)).toBe(true);
    const [example] = (await listWorkflows({}, null, temp.database)).items;
    expect(example?.name).toContain("agent");
    expect(await seedExampleWorkflows(temp.database, temp.folder)).toBe(false);
    expect((await listWorkflows({}, null, temp.database)).page.total).toBe(1);
    await deleteWorkflow(example!.id, temp.database);
    expect(await seedExampleWorkflows(temp.database, temp.folder)).toBe(false);
    expect((await listWorkflows({}, null, temp.database)).page.total).toBe(0);
  });

  it("is a valid workflow with an agent and three attached tools", async () => {
    const result = await validateWorkflow(exampleAgentWorkflow(temp.folder), { pool: defaultPool(), secrets: NO_SECRETS });
    expect(result.problems).toEqual([]);
    expect(result.valid).toBe(true);
  });
});
