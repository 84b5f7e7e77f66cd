import { describe, expect, it } from "vitest";
import { chooseRoute, conditionHolds } from "./conditions";
import type { Route } from "./definition";

describe("conditionHolds", () => {
  it("compares as numbers when both sides read as numbers, else as text", () => {
    expect(conditionHolds("10", "equals", "10.0")).toBe(true);
    expect(conditionHolds("abc", "equals", "abc ")).toBe(true);
    expect(conditionHolds("9", "less_than", "10")).toBe(true);
    expect(() => conditionHolds("nine", "less_than", "10")).toThrow("must both be numbers");
  });

  it("reads empty lists and objects as empty, and yes/no words as booleans", () => {
    expect(conditionHolds([], "is_empty", "")).toBe(true);
    expect(conditionHolds("Yes", "is_true", "")).toBe(true);
    expect(conditionHolds("", "is_false", "")).toBe(true);
  });

  it("refuses a pattern that is not a regular expression", () => {
    expect(() => conditionHolds("x", "matches", "(")).toThrow("not a valid regular expression");
  });
});

describe("chooseRoute", () => {
  const routes: Route[] = [
    { id: "failed", value: "{{ inputs.text }}", operator: "contains", compareTo: "error" },
    { id: "said", value: "{{ inputs.text }}", operator: "is_not_empty", compareTo: "" },
  ];

  it("takes the first route whose condition holds, else default", () => {
    expect(chooseRoute(routes, { inputs: { text: "an error, and more" }, nodes: {} })).toBe("failed");
    expect(chooseRoute(routes, { inputs: { text: "fine" }, nodes: {} })).toBe("said");
    expect(chooseRoute(routes, { inputs: { text: "" }, nodes: {} })).toBe("default");
  });
});
