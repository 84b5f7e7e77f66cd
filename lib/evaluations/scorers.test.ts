import { describe, expect, it } from "vitest";
import { RuleScorerSchema, ScorerSchema, type RuleScorer } from "@/lib/contracts/evaluation-scorer";
import { score } from "./scorers";

const scorer = (settings: Record<string, unknown>): RuleScorer => RuleScorerSchema.parse({ name: "check", ...settings });

describe("scoring a run's output against the expected output", () => {
  it("exact: the same text, around spaces and, when asked, case aside; a row without an expected output is not scored", () => {
    expect(score(scorer({ kind: "exact" }), "Hello Ada\n", "Hello Ada")).toEqual({ score: 1, passed: true, reason: "the output is the expected text" });
    expect(score(scorer({ kind: "exact" }), "hello ada", "Hello Ada").passed).toBe(false);
    expect(score(scorer({ kind: "exact", caseSensitive: false }), "hello ada", "Hello Ada").passed).toBe(true);
    expect(score(scorer({ kind: "exact", trim: false }), "Hello Ada ", "Hello Ada").passed).toBe(false);
    // JSON outputs compare as their JSON text.
    expect(score(scorer({ kind: "exact" }), { total: 4 }, '{"total":4}').passed).toBe(true);
    expect(score(scorer({ kind: "exact" }), "anything", undefined)).toEqual({ score: null, passed: null, reason: "the row has no expected output to compare with" });
  });

  it("contains: its own text or the expected output, case aside by default", () => {
    expect(score(scorer({ kind: "contains", text: "PARIS" }), "The capital is Paris.", undefined).passed).toBe(true);
    expect(score(scorer({ kind: "contains" }), "The capital is Paris.", "paris").passed).toBe(true);
    expect(score(scorer({ kind: "contains", caseSensitive: true }), "The capital is Paris.", "paris")).toEqual({ score: 0, passed: false, reason: "the output does not contain “paris”" });
  });

  it("json-equal: the values at a path, whatever the order of their keys, reading JSON text as JSON", () => {
    const equal = scorer({ kind: "json-equal", path: "data.person" });
    expect(score(equal, '{"data":{"person":{"name":"Ada","age":36}}}', { data: { person: { age: 36, name: "Ada" } } }).passed).toBe(true);
    expect(score(equal, { data: { person: { name: "Ada", age: 37 } } }, { data: { person: { age: 36, name: "Ada" } } })).toEqual({
      score: 0,
      passed: false,
      reason: '{"age":37,"name":"Ada"} is not {"age":36,"name":"Ada"} at data.person',
    });
    expect(score(equal, { data: {} }, { data: { person: 1 } }).reason).toBe("the output has nothing at data.person");
    expect(score(scorer({ kind: "json-equal", path: "items[1]" }), { items: [1, 2] }, { items: [0, 2] }).passed).toBe(true);
  });

  it("number: within a tolerance, numbers written as text read as numbers", () => {
    const near = scorer({ kind: "number", path: "total", tolerance: 0.5 });
    expect(score(near, { total: "10.4" }, { total: 10 }).passed).toBe(true);
    expect(score(near, { total: 11 }, { total: 10 })).toEqual({ score: 0, passed: false, reason: "11 is 1 from 10 (tolerance 0.5)" });
    expect(score(near, { total: "lots" }, { total: 10 }).reason).toBe("the output has no number at total");
    expect(score(near, { total: 3 }, { sum: 10 })).toEqual({ score: null, passed: null, reason: "the expected output has no number at total" });
    expect(score(scorer({ kind: "number" }), "42", 42).passed).toBe(true);
  });

  it("regex and json-schema: the output alone", () => {
    expect(score(scorer({ kind: "regex", pattern: "^order #\\d+$" }), "order #123", undefined).passed).toBe(true);
    expect(score(scorer({ kind: "regex", pattern: "^ORDER", caseSensitive: false }), "order #123", undefined).passed).toBe(true);
    const shaped = scorer({ kind: "json-schema", schema: { type: "object", properties: { total: { type: "number" } }, required: ["total"] } });
    expect(score(shaped, '{"total": 3}', undefined)).toEqual({ score: 1, passed: true, reason: "the output fits the schema" });
    const wrong = score(shaped, { total: "three" }, undefined);
    expect(wrong.passed).toBe(false);
    expect(wrong.reason).toMatch(/^the output does not fit the schema: total: /);
  });
});

describe("a scorer's settings", () => {
  it("are refused with the field named: a bad path, a pattern that is no regular expression, a negative tolerance", () => {
    const issues = (settings: Record<string, unknown>) => {
      const parsed = ScorerSchema.safeParse({ name: "check", ...settings });
      return parsed.success ? [] : parsed.error.issues.map((issue) => [issue.path.join("."), issue.message]);
    };
    expect(issues({ kind: "json-equal", path: "data..total" })).toEqual([["path", expect.stringContaining('"" is not a name')]]);
    expect(issues({ kind: "regex", pattern: "(unclosed" })).toEqual([["pattern", expect.stringMatching(/^is not a regular expression: /)]]);
    expect(issues({ kind: "number", tolerance: -1 })).toEqual([["tolerance", expect.any(String)]]);
    expect(issues({ kind: "exact", name: " " })).toEqual([["name", "give the scorer a name"]]);
  });
});
