import { describe, expect, it } from "vitest";
import { eventTextJson, type EventText } from "@/lib/persistence/run-event-queries";
import { childRunRedaction, HIDDEN_CHILD_RUN } from "./run-view";

/** A stored event as an event stream reads it from SQLite: its payload as the database's bytes. */
function storedText(seq: number, type: string, payload: object): EventText {
  return {
    seq,
    type,
    head: `{"runId":"run-1","seq":${seq},"type":"${type}","nodeId":"call","payload":`,
    payload: new TextEncoder().encode(JSON.stringify(payload)),
    tail: `,"createdAt":"2026-12-05T00:00:00.000Z"}`,
  };
}

describe("what a reader of some workflows' runs sees of a run's stored events", () => {
  const redaction = childRunRedaction(new Set(["wf-open"]));
  const started = (workflowId: string) => ({ runId: "child-1", workflowId, workflowName: "Payroll", version: 1 });

  it("hides the child run of a workflow they may not read, and only that", () => {
    const hidden = redaction.stored(storedText(3, "child-run-started", started("wf-closed")));
    expect(JSON.parse(eventTextJson(hidden))).toMatchObject({ seq: 3, type: "child-run-started", payload: { ...HIDDEN_CHILD_RUN, version: 1 } });
    expect(eventTextJson(hidden)).not.toContain("Payroll");

    const shown = storedText(4, "child-run-started", started("wf-open"));
    expect(redaction.stored(shown)).toBe(shown);
  });

  it("passes every other event through untouched, its bytes unread", () => {
    const text = storedText(5, "node-succeeded", { output: { content: "Payroll" }, durationMs: 3 });
    expect(redaction.stored(text)).toBe(text);
  });
});
