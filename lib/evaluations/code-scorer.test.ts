import { afterAll, describe, expect, it } from "vitest";
import { SandboxPool } from "@/lib/sandbox";
import { scoreWithCode, verdictOf } from "./code-scorer";

const sandbox = new SandboxPool({ size: 1 });
afterAll(() => sandbox.close());

const row = { inputs: { who: "Ada" }, expected: { total: 10 }, output: { total: 9 } };

describe("a custom scorer in the sandbox", () => {
  it("scores with the person's code, given output, expected and inputs", async () => {
    const code = "const off = Math.abs(output.total - expected.total); return { score: off === 0 ? 1 : 0.5, reason: `off by ${off} for ${inputs.who}` };";
    expect(await scoreWithCode({ code, timeLimitMs: 1_000 }, sandbox, row)).toEqual({ score: 0.5, passed: true, reason: "off by 1 for Ada" });
    expect(await scoreWithCode({ code: "return output.total === expected.total;", timeLimitMs: 1_000 }, sandbox, row)).toEqual({ score: 0, passed: false, reason: "the code failed it" });
  });

  it("scores nothing, saying why, when the code throws or runs past its limit", async () => {
    const thrown = await scoreWithCode({ code: "\nthrow new Error('no total');", timeLimitMs: 1_000 }, sandbox, row);
    expect(thrown).toMatchObject({ score: null, passed: null });
    expect(thrown.reason).toMatch(/^the scorer's code failed \(line 2\): .*no total/);
    const endless = await scoreWithCode({ code: "while (true) {}", timeLimitMs: 50 }, sandbox, row);
    expect(endless.score).toBeNull();
    expect(endless.reason).toMatch(/50 ms/);
  });

  it("reads what the code returns as a verdict, and refuses what is none", () => {
    expect(verdictOf(0.25)).toEqual({ score: 0.25, passed: false, reason: "the code scored it 0.25" });
    expect(verdictOf(true)).toEqual({ score: 1, passed: true, reason: "the code passed it" });
    expect(verdictOf({ score: 0.9, passed: false, reason: "close, but no" })).toEqual({ score: 0.9, passed: false, reason: "close, but no" });
    expect(verdictOf({ passed: true })).toEqual({ score: 1, passed: true, reason: "the code passed it" });
    expect(verdictOf(2).score).toBeNull();
    expect(verdictOf("yes").reason).toMatch(/return a score from 0 to 1/);
  });
});
