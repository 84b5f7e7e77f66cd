import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ESCAPE_CORPUS } from "../../../sandbox/escape-corpus";
import { openEscapeTargets, type EscapeTargets } from "../../../sandbox/escape-targets";
import { AutoApproveIOHandler } from "../../io-handler";
import { createToolContext } from "../../tool-context";
import { RunJavaScriptTool } from "./run-javascript";

/**
 * The run_javascript tool as a model meets it: computes from the `input` it is handed and returns JSON; a mistake
 * comes back as a correctable error naming `code` and the line; every escape attempt of the corpus, sent as a
 * model would send it, reaches nothing.
 */

const tool = new RunJavaScriptTool();
const context = (settings: Record<string, unknown> = {}) => createToolContext({ io: new AutoApproveIOHandler(), settings });

describe("run_javascript", () => {
  it("is a read-only, parallel-safe core tool whose only setting is its time limit", () => {
    expect(tool).toMatchObject({ name: "run_javascript", title: "Run JavaScript", origin: "core", runtime: "local_subprocess", domain: "code" });
    expect(tool.isReadOnly()).toBe(true);
    expect(tool.isConcurrencySafe()).toBe(true);
    expect(tool.isDestructive()).toBe(false);
    expect(tool.settingsModel?.parse({})).toEqual({ timeLimitMs: 1_000 });
  });

  it("computes from its input and returns the value as text and as data", async () => {
    const result = await tool.run({ code: "return input.rows.filter((r) => r.total > 10).map((r) => r.name).sort();", input: { rows: [{ name: "b", total: 30 }, { name: "a", total: 12 }, { name: "c", total: 2 }] } }, context());
    expect(result.isError, result.content).toBe(false);
    expect(result.data).toEqual(["a", "b"]);
    expect(JSON.parse(result.content)).toEqual(["a", "b"]);
  });

  it("says what went wrong on `code`, with the line, as an error a model can correct", async () => {
    const thrown = await tool.run({ code: "const x = 1;\nreturn input.missing.deeper;" }, context());
    expect(thrown).toMatchObject({ isError: true });
    expect(thrown.content).toMatch(/^`code`: Line 2, column \d+: TypeError/);
    const syntax = await tool.run({ code: "return (1 +;" }, context());
    expect(syntax.content).toMatch(/^`code`: Line 1, column \d+: SyntaxError/);
    expect(syntax.errorKind).toBe("invalid-input");
    const endless = await tool.run({ code: "while (true) {}" }, context({ timeLimitMs: 100 }));
    expect(endless.content).toContain("time limit of 100 ms");
    expect(endless.errorKind).toBe("timeout");
    expect(endless.retryable).toBe(false);
    const empty = await tool.run({ code: "   " }, context());
    expect(empty.content).toMatch(/code.*function that returns a JSON value/);
  });
});

describe("run_javascript against the escape corpus", () => {
  let targets: EscapeTargets;
  beforeAll(async () => {
    targets = await openEscapeTargets();
  });
  afterAll(async () => {
    await targets?.close();
  });

  it.each(ESCAPE_CORPUS.map((payload) => [payload.name, payload] as const))("contains %s", async (_name, payload) => {
    // The corpus reads its targets from `inputs`; the tool hands its data in as `input`.
    const result = await tool.run({ code: `const inputs = input; ${payload.code}`, input: targets.inputs }, context({ timeLimitMs: 500 }));
    targets.reachedNothing({ content: result.content, data: result.data });
  });
});
