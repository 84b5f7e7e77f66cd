import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ZodError } from "zod";
import type { WorkflowDefinitionInput } from "@/lib/workflow/definition";
import { CreateWorkflowBodySchema, DuplicateWorkflowBodySchema } from "@/lib/validations/workflow";
import type { StudioDatabase } from "./database";
import { ConflictError, NotFoundError } from "./errors";
import { openTempDatabase } from "./temp-database";
import {
  createWorkflow,
  deleteWorkflow,
  duplicateWorkflow,
  getVersion,
  getWorkflow,
  listVersions,
  saveWorkflow,
} from "./workflow-store";
import { listWorkflows } from "./workflow-list";

function definition(name: string, output = "{{ inputs.topic }}"): WorkflowDefinitionInput {
  return {
    name,
    description: `${name} described`,
    nodes: [
      { id: "start", kind: "input", fields: [{ name: "topic" }] },
      { id: "finish", kind: "output", value: output },
    ],
    edges: [{ id: "e1", source: "start", target: "finish" }],
  };
}

describe("workflow store", () => {
  let database: StudioDatabase;
  let close: () => Promise<void>;
  beforeEach(async () => ({ database, close } = await openTempDatabase()));
  afterEach(() => close());

  it("creates at version 1 with defaults applied, and reads it back", async () => {
    const created = await createWorkflow(definition("Summarise"), database);
    expect(created).toMatchObject({ name: "Summarise", description: "Summarise described", latestVersion: 1 });
    expect(created.id).toMatch(/^[0-9A-Z]{26}$/);
    expect(created.definition).toMatchObject({ formatVersion: 1, mode: "default", onError: "stop" });
    expect(created.definition.nodes[0]).toMatchObject({ position: { x: 0, y: 0 } });

    const read = await getWorkflow(created.id, database);
    expect(read).toEqual(created);
  });

  it("adds a version on every save and mirrors the name", async () => {
    const { id, updatedAt } = await createWorkflow(definition("First"), database);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const saved = await saveWorkflow(id, definition("Renamed", "v2"), {}, database);
    expect(saved).toMatchObject({ latestVersion: 2, name: "Renamed", description: "Renamed described" });
    expect(saved.updatedAt.getTime()).toBeGreaterThan(updatedAt.getTime());
    await saveWorkflow(id, definition("Renamed", "v3"), { expectedVersion: 2 }, database);

    expect((await getWorkflow(id, database)).definition.nodes[1]).toMatchObject({ value: "v3" });
    expect((await listVersions(id, database)).map((version) => version.version)).toEqual([3, 2, 1]);
    const first = await getVersion(id, 1, database);
    expect(first).toMatchObject({ workflowId: id, version: 1, definition: { name: "First" } });
  });

  it("numbers concurrent saves without gaps or clashes", async () => {
    const { id } = await createWorkflow(definition("Busy"), database);
    await Promise.all([2, 3, 4, 5].map((index) => saveWorkflow(id, definition("Busy", `v${index}`), {}, database)));
    expect((await listVersions(id, database)).map((version) => version.version)).toEqual([5, 4, 3, 2, 1]);
  });

  it("refuses a save from a stale version with a ConflictError, writing nothing", async () => {
    const { id } = await createWorkflow(definition("Shared"), database);
    await saveWorkflow(id, definition("Shared", "theirs"), {}, database);
    const stale = saveWorkflow(id, definition("Mine", "mine"), { expectedVersion: 1 }, database);
    await expect(stale).rejects.toSatisfy(ConflictError.isInstance);
    await expect(stale).rejects.toThrow(/you edited version 1, the newest is 2/);
    expect(await getWorkflow(id, database)).toMatchObject({ name: "Shared", latestVersion: 2 });
  });

  it("lists workflows newest first with the last run's status", async () => {
    const older = await createWorkflow(definition("Older"), database);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const newer = await createWorkflow(definition("Newer"), database);
    const version = await getVersion(older.id, 1, database);
    await database.run.create({ data: { id: "r1", workflowId: older.id, versionId: version.id, status: "failed", inputs: "{}" } });
    await new Promise((resolve) => setTimeout(resolve, 5));
    await database.run.create({ data: { id: "r2", workflowId: older.id, versionId: version.id, status: "succeeded", inputs: "{}" } });

    const listed = (await listWorkflows({}, null, database)).items;
    expect(listed.map((workflow) => [workflow.name, workflow.lastRunStatus])).toEqual([
      ["Newer", null],
      ["Older", "succeeded"],
    ]);
    expect(listed[0]).toMatchObject({ id: newer.id, latestVersion: 1, description: "Newer described", lastRunAt: null });
  });

  it("duplicates the newest definition as a new workflow", async () => {
    const { id } = await createWorkflow(definition("Source"), database);
    await saveWorkflow(id, definition("Source", "latest"), {}, database);
    const copy = await duplicateWorkflow(id, undefined, database);
    expect(copy).toMatchObject({ name: "Source (copy)", latestVersion: 1 });
    expect(copy.id).not.toBe(id);
    expect(copy.definition.nodes[1]).toMatchObject({ value: "latest" });
    expect((await duplicateWorkflow(id, "Fork", database)).name).toBe("Fork");
  });

  it("deletes a workflow with its versions and runs", async () => {
    const { id } = await createWorkflow(definition("Doomed"), database);
    const version = await getVersion(id, 1, database);
    await database.run.create({ data: { id: "r1", workflowId: id, versionId: version.id, status: "succeeded", inputs: "{}" } });
    await deleteWorkflow(id, database);
    expect(await database.workflowVersion.count()).toBe(0);
    expect(await database.run.count()).toBe(0);
    await expect(deleteWorkflow(id, database)).rejects.toSatisfy(NotFoundError.isInstance);
  });

  it("answers NotFoundError naming the kind and id", async () => {
    await expect(getWorkflow("missing", database)).rejects.toSatisfy(
      (error) => NotFoundError.isInstance(error) && error.kind === "workflow" && error.id === "missing",
    );
    await expect(saveWorkflow("missing", definition("X"), {}, database)).rejects.toSatisfy(NotFoundError.isInstance);
    await expect(listVersions("missing", database)).rejects.toSatisfy(NotFoundError.isInstance);
    await expect(duplicateWorkflow("missing", undefined, database)).rejects.toSatisfy(NotFoundError.isInstance);
    const { id } = await createWorkflow(definition("Here"), database);
    await expect(getVersion(id, 9, database)).rejects.toSatisfy(
      (error) => NotFoundError.isInstance(error) && error.kind === "workflow version" && error.id === `${id}@9`,
    );
  });

  it("refuses an invalid definition before writing", async () => {
    const invalid = { ...definition("Bad"), edges: [{ id: "e1", source: "start", target: "ghost" }] };
    await expect(createWorkflow(invalid, database)).rejects.toThrow(ZodError);
    expect(await database.workflow.count()).toBe(0);
  });

  it("request-body schemas are the definition schema", () => {
    expect(CreateWorkflowBodySchema.safeParse(definition("Ok")).success).toBe(true);
    expect(CreateWorkflowBodySchema.safeParse({ ...definition("Ok"), name: " " }).success).toBe(false);
    expect(DuplicateWorkflowBodySchema.parse({})).toEqual({});
  });
});
