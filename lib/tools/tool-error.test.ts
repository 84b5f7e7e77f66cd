import { describe, expect, it } from "vitest";
import { isRetryable, TOOL_ERROR_KINDS } from "./tool-error";
import { ToolResult } from "./tool-result";

describe("the error contract", () => {
  it("retries transient kinds by default and nothing else", () => {
    const retryable = TOOL_ERROR_KINDS.filter((kind) => isRetryable(kind));
    expect(retryable).toEqual(["timeout", "network", "unavailable", "busy"]);
  });

  it("never lets a denial, bad input, a confinement refusal or a cancellation be retried, whatever the tool asks", () => {
    for (const kind of ["denied", "invalid-input", "confinement", "cancelled"] as const) expect(isRetryable(kind, true)).toBe(false);
    expect(isRetryable("failed", true)).toBe(true);
    expect(isRetryable("network", false)).toBe(false);
  });

  it("carries the kind on a ToolResult, through masking and into its JSON", () => {
    const reset = ToolResult.error("the connection to db.internal was reset", { kind: "network" });
    expect(reset).toMatchObject({ isError: true, errorKind: "network", retryable: true });
    const masked = reset.mapText((text) => text.replace("db.internal", "[hidden]"));
    expect(masked.toJSON()).toEqual({ content: "the connection to [hidden] was reset", isError: true, images: [], errorKind: "network", retryable: true });
    expect(ToolResult.error("no")).toMatchObject({ errorKind: "failed", retryable: false });
    expect(ToolResult.ok("fine")).toMatchObject({ errorKind: null, retryable: false });
    expect(ToolResult.ok("fine").toJSON()).not.toHaveProperty("errorKind");
  });
});
