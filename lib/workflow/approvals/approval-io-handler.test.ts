import { describe, expect, it } from "vitest";
import type { ApprovalAsk } from "@/lib/tools";
import type { ApprovalDecision, ApprovalRecord, ApprovalRequest } from "../run-types";
import { ApprovalIOHandler } from "./approval-io-handler";

/** A handler whose waits are answered at once with `decision`, recording each stored request. */
function handlerAnswering(decision: ApprovalDecision, feedback: string | null = null, editedArguments: Record<string, unknown> | null = null) {
  const stored: ApprovalRequest[] = [];
  const io = new ApprovalIOHandler(
    async (request) => {
      stored.push(request);
      return { ...request, id: `a${stored.length}`, effect: request.effect!, digest: "", status: "approved", decision, editedArguments, feedback, decidedBy: null, decidedAt: null, createdAt: "" } satisfies ApprovalRecord;
    },
    { runId: "run-1", nodeId: "step" },
    { tool: null, operation: null, arguments: { path: "../raw/as/given.md" } },
    async () => undefined,
  );
  return { io, stored };
}

const network: ApprovalAsk = {
  kind: "network",
  method: "DELETE",
  url: "https://example.test/items/7",
  reason: "Send an HTTP DELETE request without a body.",
  preview: { kind: "request", method: "DELETE", url: "https://example.test/items/7", headers: [], body: null },
};

describe("ApprovalIOHandler", () => {
  it("stores the ask's kind as the approval's kind, with no guessing from the tool", async () => {
    const { io, stored } = handlerAnswering("approve");
    await io.requestApproval(network);
    await io.requestApproval({ kind: "mcp", server: "files", tool: "write_note", argumentsText: "{}", preview: { kind: "tool-call", tool: "write_note", server: "files", argumentsText: "{}" } });
    expect(stored.map((request) => request.kind)).toEqual(["network", "mcp"]);
    expect(stored[0]).toMatchObject({ key: "step:0", effect: network.preview, preview: "DELETE https://example.test/items/7" });
    expect(stored[1]!.key).toBe("step:1");
  });

  it("stores a write's preview naming the confined path the gate checked, not the raw argument", async () => {
    const { io, stored } = handlerAnswering("always");
    const answer = await io.requestApproval({
      kind: "write",
      path: "reports/q3.md",
      root: "/srv/work",
      alwaysFolder: "reports",
      edit: false,
      preview: { kind: "file-change", path: "q3.md", change: "create", added: 1, removed: 0, rows: [] },
    });
    expect(answer).toEqual({ decision: "always" });
    expect(stored[0]).toMatchObject({ kind: "write", effect: { kind: "file-change", path: "reports/q3.md" } });
  });

  it.each([
    ["approve", "once"],
    ["once", "once"],
    ["always", "always"],
    ["deny", "deny"],
  ] as const)("reads a stored %s as %s, passing the person's words on", async (stored, answered) => {
    const { io } = handlerAnswering(stored, "because");
    expect(await io.requestApproval(network)).toEqual({ decision: answered, feedback: "because" });
  });

  it("hands the gate the arguments a person approved instead, whenever the step asks, a replay after a restart too", async () => {
    const edit = { method: "GET", url: "https://example.test/items/7" };
    const { io } = handlerAnswering("approve", null, edit);
    expect(await io.requestApproval(network)).toEqual({ decision: "once", arguments: edit });
    // A stored edit never rides on a denial.
    expect(await handlerAnswering("deny", null, edit).io.requestApproval(network)).toEqual({ decision: "deny" });
  });
});
