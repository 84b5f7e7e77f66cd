import { describe, expect, it } from "vitest";
import { toolFlags } from "./annotations";

describe("toolFlags", () => {
  it("treats a tool without annotations as destructive and not read-only (the MCP defaults)", () => {
    expect(toolFlags(undefined)).toEqual({ readOnly: false, destructive: true, concurrencySafe: false });
    expect(toolFlags({})).toEqual({ readOnly: false, destructive: true, concurrencySafe: false });
  });

  it("maps readOnlyHint to read-only, which is never destructive", () => {
    expect(toolFlags({ readOnlyHint: true })).toEqual({ readOnly: true, destructive: false, concurrencySafe: true });
    expect(toolFlags({ readOnlyHint: true, destructiveHint: true })).toEqual({ readOnly: true, destructive: false, concurrencySafe: true });
  });

  it("honours destructiveHint: false on a tool that changes things", () => {
    expect(toolFlags({ destructiveHint: false })).toEqual({ readOnly: false, destructive: false, concurrencySafe: false });
  });

  it("is concurrency-safe only when read-only and not open-world", () => {
    expect(toolFlags({ readOnlyHint: true, openWorldHint: true }).concurrencySafe).toBe(false);
    expect(toolFlags({ readOnlyHint: true, openWorldHint: false }).concurrencySafe).toBe(true);
  });
});
