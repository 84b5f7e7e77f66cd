import { describe, expect, it } from "vitest";
import { savedButUnusableMessage } from "./secret-problem";

describe("savedButUnusableMessage", () => {
  it("names the tool and what it found", () => {
    expect(savedButUnusableMessage("SQL Database", "is not a database connection URL (expected postgresql://...)")).toBe(
      "Saved, but SQL Database says this value is not a database connection URL (expected postgresql://...).",
    );
  });

  it("does not double the full stop", () => {
    expect(savedButUnusableMessage("Web Search", "is empty.")).toBe("Saved, but Web Search says this value is empty.");
  });

  it("says nothing when the value is usable", () => {
    expect(savedButUnusableMessage("Web Search", "")).toBe("");
    expect(savedButUnusableMessage(null, "  ")).toBe("");
  });
});
