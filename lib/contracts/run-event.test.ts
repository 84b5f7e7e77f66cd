import { describe, expect, it } from "vitest";
import { formatEvent } from "@/lib/server/event-stream";
import { readRunEvent, RUN_EVENT_TYPES, RunEventSchema } from "./run-event";
import { sampleEvents } from "./run-event-samples";

const envelope = { runId: "r1", seq: 3, nodeId: null, createdAt: "2025-01-01T00:00:00.000Z" };

/** The `data:` line of one SSE message, as the browser's EventSource hands it over. */
function dataOf(message: string): string {
  return message
    .split("\n")
    .filter((line) => line.startsWith("data: "))
    .map((line) => line.slice("data: ".length))
    .join("\n");
}

describe("the run event contract", () => {
  it("has a sample for every type, and each crosses the wire unchanged: serialised by the SSE route, read by the client", () => {
    const events = sampleEvents();
    expect(events.map((event) => event.type)).toEqual([...RUN_EVENT_TYPES]);
    for (const event of events) {
      const message = formatEvent(event);
      expect(message, event.type).toContain(`event: ${event.type}\n`);
      expect(readRunEvent(dataOf(message)), event.type).toEqual(event);
    }
  });

  it("reads an event of a known type", () => {
    expect(readRunEvent(JSON.stringify({ ...envelope, type: "run-started", payload: { inputs: {} } }))).toMatchObject({ type: "run-started", seq: 3 });
  });

  it("tells an event it cannot use (a newer type, a payload it cannot read) from something that is no event", () => {
    expect(readRunEvent(JSON.stringify({ ...envelope, type: "node-thought-delta", payload: {} }))).toBe("unknown");
    expect(readRunEvent(JSON.stringify({ ...envelope, type: "node-failed", payload: { error: 42 } }))).toBe("unknown");
    expect(readRunEvent(JSON.stringify({ ...envelope, type: "approval-requested", payload: { approval: { id: 3 } } }))).toBe("unknown");
    expect(readRunEvent("{not json")).toBeNull();
    expect(readRunEvent(JSON.stringify({ type: "run-started" }))).toBeNull();
    expect(readRunEvent(JSON.stringify({ ...envelope, seq: 0, type: "run-started", payload: { inputs: {} } }))).toBeNull();
  });

  it("reads approval events stored before approvals carried an effect and a digest", () => {
    const [requested] = sampleEvents().filter((event) => event.type === "approval-requested");
    const { effect: _effect, digest: _digest, ...old } = (requested!.payload as { approval: Record<string, unknown> }).approval;
    const event = readRunEvent(JSON.stringify({ ...requested, payload: { approval: old } }));
    expect(event).toMatchObject({ type: "approval-requested", payload: { approval: { digest: "", effect: { kind: "text", text: "+hello" } } } });
  });

  it("reads decision events stored when the decider was a name alone, as a decider with no person", () => {
    const [decided] = sampleEvents().filter((event) => event.type === "approval-decided");
    const approval = { ...(decided!.payload as { approval: Record<string, unknown> }).approval, decidedBy: "Ada Lovelace" };
    const event = readRunEvent(JSON.stringify({ ...decided, payload: { approval } }));
    expect(event).toMatchObject({ type: "approval-decided", payload: { approval: { decidedBy: { personId: null, name: "Ada Lovelace" } } } });
  });

  it("checks payloads, not only envelopes", () => {
    expect(RunEventSchema.safeParse({ ...envelope, type: "node-started", payload: {} }).success).toBe(false);
    expect(RunEventSchema.safeParse({ ...envelope, type: "node-started", payload: { kind: "tool", attempt: 1 } }).success).toBe(true);
  });
});
