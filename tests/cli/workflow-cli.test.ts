import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WorkflowDefinitionInput } from "@/lib/workflow/definition";
import type { RunEvent } from "@/lib/workflow/run-types";
import { runWorkflowCli } from "./cli-process";

let folder: string;
let dataFolder: string;
let workRoot: string;

beforeAll(() => {
  folder = realpathSync(mkdtempSync(path.join(os.tmpdir(), "workflow-cli-test-")));
  dataFolder = path.join(folder, "data");
  workRoot = path.join(folder, "work");
  mkdirSync(workRoot);
});

afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Runs the real CLI, stdin not a terminal, in a clean environment pointed at the test's data folder. */
const runCli = runWorkflowCli;

function writeWorkflowFile(name: string, definition: WorkflowDefinitionInput | Record<string, unknown>): string {
  const file = path.join(folder, `${name}.json`);
  writeFileSync(file, JSON.stringify(definition, null, 2));
  return file;
}

const writeWorkflow = (file: string): WorkflowDefinitionInput => ({
  name: `cli write ${file}`,
  mode: "default",
  nodes: [
    { id: "in", kind: "input", fields: [{ name: "name" }, { name: "times", type: "number", required: false }] },
    { id: "write", kind: "tool", tool: "write_file", settings: { root: workRoot }, arguments: { path: file, content: "hello {{ inputs.name }}" } },
    { id: "out", kind: "output", value: "{{ nodes.write.output }}" },
  ],
  edges: [
    { id: "a", source: "in", target: "write" },
    { id: "b", source: "write", target: "out" },
  ],
});

describe("npm run workflow -- run FILE.json", () => {
  it("writes the file with --auto-approve and exits 0, printing the events and the output", async () => {
    const file = writeWorkflowFile("approved", writeWorkflow("approved.txt"));
    const result = await runCli(["run", file, "--input", "name=Ada", "--auto-approve", "--data", dataFolder]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(readFileSync(path.join(workRoot, "approved.txt"), "utf8")).toBe("hello Ada");
    expect(result.stdout).toContain("[write] write (write_file) → once (by workflow-cli --auto-approve)");
    expect(result.stdout).toContain("[write] succeeded: Created approved.txt");
    expect(result.stdout).toMatch(/Output:\nCreated approved\.txt/);
    // The run is in the studio's database.
    expect(existsSync(path.join(dataFolder, "studio.db"))).toBe(true);
  });

  it("denies approvals when no one is at a terminal, failing the node with the reason, and exits 1", async () => {
    const file = writeWorkflowFile("denied", writeWorkflow("denied.txt"));
    const result = await runCli(["run", file, "--input", "name=Ada", "--data", dataFolder]);
    expect(result.code).toBe(1);
    // Said as nobody being there, not as a person's words.
    expect(result.stdout).toMatch(/\[write\] FAILED: .*Nobody was there to approve writing "denied\.txt", so it did not happen\. Run the workflow on a terminal to be asked/);
    expect(result.stdout).not.toContain("The person");
    expect(result.stdout).toContain("Run failed");
    expect(existsSync(path.join(workRoot, "denied.txt"))).toBe(false);
  });

  it("says nobody was there to approve a plan-mode run's plan when no one is at a terminal, not what a person said", async () => {
    const file = writeWorkflowFile("plan-denied", { ...writeWorkflow("plan-denied.txt"), mode: "plan" });
    const result = await runCli(["run", file, "--input", "name=Ada", "--data", dataFolder]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/Nobody was there to approve the plan, so nothing ran\. Run the workflow on a terminal to be asked/);
    expect(result.stdout).not.toContain("The person said");
    expect(existsSync(path.join(workRoot, "plan-denied.txt"))).toBe(false);
  }, 60_000);

  it("exits 2 naming the input when an --input is wrong", async () => {
    const file = writeWorkflowFile("inputs", writeWorkflow("inputs.txt"));
    const notANumber = await runCli(["run", file, "--input", "name=Ada", "--input", "times=many", "--data", dataFolder]);
    expect(notANumber.code).toBe(2);
    expect(notANumber.stderr).toContain('--input times: expected a number (got "many")');

    const unknown = await runCli(["run", file, "--input", "name=Ada", "--input", "colour=red", "--data", dataFolder]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--input colour: the workflow has no input "colour"');

    const missing = await runCli(["run", file, "--data", dataFolder]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("--input name: this input is required");
    expect(existsSync(path.join(workRoot, "inputs.txt"))).toBe(false);
  });

  it("exits 2 listing every problem of an invalid file, with node and field", async () => {
    const file = writeWorkflowFile("invalid", {
      name: "cli invalid",
      nodes: [
        { id: "w", kind: "tool", tool: "write_file", settings: { root: 5 }, arguments: { path: "a.txt", content: "x", colour: "red" } },
        { id: "t", kind: "tool", tool: "no_such_tool" },
      ],
      edges: [{ id: "e", source: "w", target: "t" }],
    });
    const result = await runCli(["run", file, "--auto-approve", "--data", dataFolder]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("is not a valid workflow (3 problems)");
    expect(result.stderr).toContain('node "w", field settings.root:');
    expect(result.stderr).toContain('node "w", field arguments.colour:');
    expect(result.stderr).toContain('node "t", field tool: Unknown tool "no_such_tool"');
  });

  it("refuses to drive a run on PostgreSQL, where the studio's workers drive runs, and says what to do instead", async () => {
    const file = writeWorkflowFile("postgres", writeWorkflow("never.txt"));
    const result = await runCli(["run", file, "--input", "name=Bo", "--auto-approve"], { DATABASE_URL: "postgresql://studio:hunter2@127.0.0.1:5432/studio" });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("POST /api/workflows/{id}/runs");
    expect(result.stderr).toContain("postgresql://studio:***@127.0.0.1:5432/studio");
    expect(result.stderr).not.toContain("hunter2");
  });

  it("exits 2 on a bad option, naming it", async () => {
    const result = await runCli(["run", "whatever.json", "--frobnicate"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--frobnicate");
  });

  it("prints one parseable JSON event per line with --json, with contiguous sequence numbers", async () => {
    const file = writeWorkflowFile("json", writeWorkflow("json.txt"));
    const result = await runCli(["run", file, "--input", "name=Bo", "--auto-approve", "--json", "--data", dataFolder]);
    expect(result.code).toBe(0);
    const events = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as RunEvent);
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
    expect(new Set(events.map((event) => event.runId)).size).toBe(1);
    expect(events[0]?.type).toBe("run-started");
    expect(events.at(-1)).toMatchObject({ type: "run-succeeded", payload: { output: expect.stringContaining("json.txt") } });
    expect(events.some((event) => event.type === "approval-decided")).toBe(true);
  });

  it("reuses the stored workflow when the file has not changed", async () => {
    const file = writeWorkflowFile("reuse", writeWorkflow("reuse.txt"));
    const first = await runCli(["run", file, "--input", "name=A", "--auto-approve", "--data", dataFolder]);
    const second = await runCli(["run", file, "--input", "name=B", "--auto-approve", "--data", dataFolder]);
    const workflowId = (output: string) => /\(workflow (\w+), version/.exec(output)?.[1];
    expect(second.code).toBe(0);
    expect(workflowId(second.stdout)).toBe(workflowId(first.stdout));
    expect(second.stdout).toContain("already stored");
  });
});
