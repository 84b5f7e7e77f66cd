import { describe, expect, it } from "vitest";
import type { RunEvent } from "@/lib/workflow/run-types";
import { sampleEvents } from "@/lib/contracts/run-event-samples";
import { describeEvent } from "./describe-event";

const event = (type: RunEvent["type"], nodeId: string | null, payload: Record<string, unknown> = {}): RunEvent => ({
  runId: "r",
  seq: 1,
  type,
  nodeId,
  payload,
  createdAt: "2025-01-01T00:00:00.000Z",
}) as RunEvent;
const labels: Record<string, string> = { write: "Write a File" };
const labelOf = (id: string) => labels[id] ?? id;

describe("describeEvent", () => {
  it("says what happened in words, with the node's label", () => {
    expect(describeEvent(event("node-started", "write", { attempt: 1 }), labelOf)).toMatchObject({ subject: "Write a File", text: "Started" });
    expect(describeEvent(event("node-started", "write", { attempt: 2 }), labelOf).text).toBe("Started (attempt 2)");
    expect(describeEvent(event("approval-requested", "write", { approval: { kind: "write" } }), labelOf).text).toBe("Waiting for approval");
    expect(describeEvent(event("approval-decided", "write", { approval: { decision: "once", decidedBy: { personId: "p1", name: "Ada" }, status: "approved" } }), labelOf).text).toBe(
      "Approved once by Ada",
    );
    expect(
      describeEvent(
        event("approval-decided", "write", {
          approval: { decision: "approve", decidedBy: { personId: "p1", name: "Ada" }, status: "approved", arguments: { command: "rm -rf build", operation: "run" }, editedArguments: { command: "rm -rf build/tmp", operation: "run" } },
        }),
        labelOf,
      ).text,
    ).toBe("Approved by Ada, edited (command)");
    expect(
      describeEvent(event("approval-decided", "write", { approval: { decision: "deny", decidedBy: { personId: "p1", name: "Ada" }, feedback: "not there", status: "denied" } }), labelOf),
    ).toMatchObject({ text: "Denied by Ada: “not there”", tone: "bad" });
    expect(describeEvent(event("approval-voted", "write", { approvalId: "a1", by: "Ada", approvals: 1, required: 2 }), labelOf)).toMatchObject({
      subject: "Write a File",
      text: "Approved by Ada: 1 of 2, waiting for one more person",
      tone: "waiting",
    });
    expect(describeEvent(event("approval-voted", "write", { approvalId: "a1", by: "Bo", approvals: 1, required: 3 }), labelOf).text).toBe("Approved by Bo: 1 of 3, waiting for 2 more people");
    expect(describeEvent(event("node-failed", "write", { error: "disk full" }), labelOf).text).toBe("Failed: disk full");
    expect(describeEvent(event("node-progress", "write", { message: "50%" }), labelOf).text).toBe("50%");
    expect(describeEvent(event("child-run-started", "write", { runId: "01ITEM00RUN2", workflowId: "w", workflowName: "Parent", version: 1, item: 1, count: 3 }), labelOf).text).toBe(
      "Started item 2 of 3 as run #00RUN2",
    );
    // A test run leaves out what it does not need (the Run inputs behind a pinned step): not a branch not taken.
    expect(describeEvent(event("node-skipped", "input", { reason: "not part of this test run" }), labelOf).text).toBe("Not part of this test run");
    expect(describeEvent(event("node-skipped", "write", { reason: "this run was started by the webhook" }), labelOf).text).toBe("Skipped: this run was started by the webhook");
    expect(describeEvent(event("node-skipped", "write", {}), labelOf).text).toBe("Skipped: its branch was not taken or what fed it failed");
    // A loop's body is no step of the run holding the loop: the timeline says where it runs, not that it was skipped.
    expect(describeEvent(event("node-skipped", "write", { reason: "in-loop", loop: "each" }), (id: string) => (id === "each" ? "Each note" : labelOf(id))).text).toBe(
      "Runs in each item's run of the For each “Each note”, not here",
    );
    expect(describeEvent(event("run-cancelled", null, { cancelledBy: "Ada" }), labelOf)).toMatchObject({ subject: null, text: "Run cancelled by Ada" });
  });

  it("says which run a run repeats, and which steps it kept from it", () => {
    const source = "01JDX3W8Z4Q7N2M5K8R1T6V9YB";
    expect(describeEvent(event("run-started", null, { inputs: {}, source: { runId: source, kind: "retry-from-failure" } }), labelOf).text).toBe(
      "Run started: a retry of run #T6V9YB from its failed step",
    );
    expect(describeEvent(event("run-started", null, { inputs: {}, source: { runId: source, kind: "run-again" } }), labelOf).text).toBe(
      "Run started: run #T6V9YB again, with the same inputs",
    );
    expect(describeEvent(event("node-carried-over", "write", { fromRunId: source, output: { content: "x" } }), labelOf)).toMatchObject({
      subject: "Write a File",
      text: "Kept its result from run #T6V9YB: it succeeded there and does not run again",
      tone: "good",
    });
  });

  it("names the plan for run-level approvals", () => {
    const description = describeEvent(event("approval-requested", null, { approval: { kind: "plan" } }), labelOf);
    expect(description).toMatchObject({ subject: "Plan", text: "Waiting for the plan to be approved" });
  });
});

describe("describeEvent for every type of the contract", () => {
  it("says each in words, never as its raw type name", () => {
    for (const sample of sampleEvents()) {
      const type = sample.type;
      const description = describeEvent(sample, labelOf);
      expect(description.text, type).not.toContain(type);
      expect(description.text.length, type).toBeGreaterThan(3);
    }
  });

  it("names an agent's tool call as the canvas names the tool, a control tool by its name", () => {
    // The call went through the attached node "write", labelled "Write a File".
    expect(describeEvent(event("node-tool-call-started", "agent", { tool: "write_file", nodeId: "write" }), labelOf).text).toBe("Called Write a File");
    expect(
      describeEvent(event("node-tool-call-finished", "agent", { tool: "write_file", nodeId: "write", isError: true, content: "disk full\nmore" }), labelOf).text,
    ).toBe("Write a File failed: disk full");
    expect(describeEvent(event("node-tool-call-started", "agent", { tool: "ask_user", nodeId: null }), labelOf).text).toBe("Called ask_user");
  });
});
