import { describe, expect, it } from "vitest";
import { readRunEvent } from "./run-event";

const envelope = { runId: "r1", seq: 3, nodeId: null, payload: {}, createdAt: "2025-01-01T00:00:00.000Z" };

describe("readRunEvent", () => {
  it("reads an event of a known type", () => {
    expect(readRunEvent(JSON.stringify({ ...envelope, type: "run-started" }))).toMatchObject({ type: "run-started", seq: 3 });
  });

  it("tells an event of a type this client does not know from something that is no event", () => {
    expect(readRunEvent(JSON.stringify({ ...envelope, type: "node-thought-delta" }))).toBe("unknown");
    expect(readRunEvent("{not json")).toBeNull();
    expect(readRunEvent(JSON.stringify({ type: "run-started" }))).toBeNull();
    expect(readRunEvent(JSON.stringify({ ...envelope, seq: 0, type: "run-started" }))).toBeNull();
  });
});
