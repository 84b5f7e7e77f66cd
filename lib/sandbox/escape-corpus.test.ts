import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkJavaScriptSyntax, SandboxPool } from ".";
import { ESCAPE_CORPUS } from "./escape-corpus";
import { openEscapeTargets, type EscapeTargets } from "./escape-targets";

/**
 * Every escape attempt of the corpus, each its own test: it must end as expected (mostly an exception naming what
 * is missing), and none may reach the secret planted in this process's environment, the marker file (read or
 * written), the database file, or the loopback listener; nor change this process's prototypes.
 */

let targets: EscapeTargets;
let pool: SandboxPool;

beforeAll(async () => {
  targets = await openEscapeTargets();
  pool = new SandboxPool({ size: 2, limits: { timeMs: 500 } });
});

afterAll(async () => {
  await pool?.close();
  await targets?.close();
});

describe("the escape corpus", () => {
  it("holds enough attempts to mean something", () => {
    expect(ESCAPE_CORPUS.length).toBeGreaterThanOrEqual(45);
    expect(new Set(ESCAPE_CORPUS.map((payload) => payload.name)).size).toBe(ESCAPE_CORPUS.length);
  });

  it.each(ESCAPE_CORPUS.map((payload) => [payload.name, payload] as const))("contains %s", async (_name, payload) => {
    const outcome = await pool.run({ code: payload.code, scope: { inputs: targets.inputs } });
    targets.reachedNothing(outcome);
    const kind = outcome.ok ? "value" : outcome.error.kind;
    expect(payload.expected, `${payload.name} ended as ${JSON.stringify(outcome)}`).toContain(kind);
    // The next job on the same pool still works.
    expect(await pool.run({ code: "return typeof process", scope: {} })).toMatchObject({ ok: true, value: "undefined" });
  });

  it("names what is missing when the code reaches for the host", async () => {
    const outcome = await pool.run({ code: "return process.env", scope: {} });
    expect(outcome).toMatchObject({ ok: false, error: { kind: "exception", message: "ReferenceError: 'process' is not defined" } });
  });

  it("runs nothing while checking syntax, however the wrapper is closed early", async () => {
    const problem = await checkJavaScriptSyntax("});\nrequire('fs').writeFileSync(" + JSON.stringify(targets.inputs.markerPath) + ", 'x');\n(async function () {");
    expect(problem).toBeNull();
    targets.reachedNothing(problem);
  });
});
