import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isAlive, waitFor } from "@/lib/tools/testing/processes";
import { checkJavaScriptSyntax, SandboxPool, type SandboxOutcome } from ".";

/**
 * The sandbox's behaviour on real worker processes: data in and out, the author's line and column, results that are
 * not JSON, each limit (and the pool serving the next job after it, the host staying responsive meanwhile), a
 * killed worker replaced, cancelling, and close() leaving no process behind.
 */

let pool: SandboxPool;

beforeAll(() => {
  pool = new SandboxPool({ size: 2 });
});

afterAll(async () => {
  await pool.close();
});

function valueOf(outcome: SandboxOutcome): unknown {
  if (!outcome.ok) throw new Error(`expected a value, got ${outcome.error.kind}: ${outcome.error.message}`);
  return outcome.value;
}

/** The longest gap between turns of the host's event loop while `work` runs (a setImmediate ping loop). */
async function longestEventLoopGap<T>(work: () => Promise<T>): Promise<{ result: T; gapMs: number }> {
  let gapMs = 0;
  let last = performance.now();
  let running = true;
  const ping = () => {
    const now = performance.now();
    gapMs = Math.max(gapMs, now - last);
    last = now;
    if (running) setImmediate(ping);
  };
  setImmediate(ping);
  const result = await work();
  running = false;
  return { result, gapMs };
}

describe("data in and out", () => {
  it("hands the scope in as JSON and takes JSON out", async () => {
    const outcome = await pool.run({
      code: "const rows = nodes.orders.data.rows;\nreturn { total: rows.filter(r => r.total > 10).reduce((sum, r) => sum + r.total, 0), who: inputs.name };",
      scope: { inputs: { name: "Ann" }, nodes: { orders: { data: { rows: [{ total: 30 }, { total: 5 }, { total: 12 }] } } } },
    });
    expect(valueOf(outcome)).toEqual({ total: 42, who: "Ann" });
  });

  it("reads ${NAME} as plain text", async () => {
    expect(valueOf(await pool.run({ code: "return '${API_KEY}' + `${'$'}{HOME}`", scope: {} }))).toBe("${API_KEY}${HOME}");
  });

  it("gives each job a fresh context: a global one job sets is not there for the next", async () => {
    const jobs = [pool.run({ code: "globalThis.leak = 'secret'; Object.prototype.polluted = 1; return 1", scope: {} })];
    await Promise.all(jobs);
    for (let attempt = 0; attempt < 4; attempt += 1) {
      expect(valueOf(await pool.run({ code: "return [typeof leak, typeof ({}).polluted]", scope: {} }))).toEqual(["undefined", "undefined"]);
    }
  });

  it("runs the code once per item with item and index, each item failing on its own", async () => {
    const outcome = await pool.runEach({
      code: "if (index === 1) throw new Error('item ' + item.id + ' is bad');\nreturn { id: item.id, twice: item.n * inputs.factor, index };",
      scope: { inputs: { factor: 2 }, item: "replaced", index: -1 },
      items: [
        { id: "a", n: 1 },
        { id: "b", n: 2 },
        { id: "c", n: 3 },
      ],
    });
    if (!outcome.ok) throw new Error(outcome.error.message);
    expect(outcome.results.map((result) => (result.ok ? result.value : result.error))).toEqual([
      { id: "a", twice: 2, index: 0 },
      { kind: "exception", message: "Error: item b is bad", line: 1, column: 33 },
      { id: "c", twice: 6, index: 2 },
    ]);
  });

  it("awaits a returned Promise and reports a rejected one as an exception", async () => {
    expect(valueOf(await pool.run({ code: "const x = await Promise.resolve(20);\nreturn new Promise((resolve) => resolve(x + 1))", scope: {} }))).toBe(21);
    const rejected = await pool.run({ code: "return Promise.reject(new TypeError('no way'))", scope: {} });
    expect(rejected).toMatchObject({ ok: false, error: { kind: "exception", message: "TypeError: no way" } });
  });
});

describe("errors in the author's terms", () => {
  it("locates a syntax error on the first line (the wrapper's header subtracted) and further down", async () => {
    expect(await pool.run({ code: "return = 1", scope: { inputs: {} } })).toMatchObject({ ok: false, error: { kind: "syntax", line: 1, column: 8 } });
    expect(await pool.run({ code: "const a = 1;\n\nlet b = a +* 2;", scope: {} })).toMatchObject({ ok: false, error: { kind: "syntax", line: 3, column: 12 } });
  });

  it("locates an exception thrown by the code", async () => {
    expect(await pool.run({ code: "return inputs.missing.deeper", scope: { inputs: {} } })).toMatchObject({
      ok: false,
      error: { kind: "exception", message: "TypeError: cannot read property 'deeper' of undefined", line: 1, column: 22 },
    });
    const deeper = await pool.run({ code: "const f = (x) => {\n  return x.map((y) => y.z.w);\n};\nreturn f([{}]);", scope: {} });
    expect(deeper).toMatchObject({ ok: false, error: { kind: "exception", line: 2, column: 26 } });
  });

  it("checks syntax without running anything, with the same positions", async () => {
    expect(await checkJavaScriptSyntax("return nodes.a.data.rows.filter(r => r.total > 10)")).toBeNull();
    expect(await checkJavaScriptSyntax("return = 1")).toEqual({ message: "SyntaxError: unexpected token in expression: '='", line: 1, column: 8 });
    expect(await checkJavaScriptSyntax("const a = 1;\n\nlet b = a +* 2;")).toMatchObject({ line: 3, column: 12 });
    expect(await checkJavaScriptSyntax("let inputs = 1; return inputs", ["inputs"])).not.toBeNull();
    // Compiling executes nothing: an endless loop compiles at once.
    expect(await checkJavaScriptSyntax("while (true) {}")).toBeNull();
  });

  it("words a thrown value that is not an Error, and bounds a message however it is made", async () => {
    expect(await pool.run({ code: "throw 'plain text'", scope: {} })).toMatchObject({ ok: false, error: { kind: "exception", message: "the code threw a value that is not an Error: plain text" } });
    const huge = await pool.run({ code: "throw new Error('x'.repeat(1e6))", scope: {} });
    expect(huge.ok).toBe(false);
    if (!huge.ok) expect(huge.error.message.length).toBeLessThan(2_100);
    const throwingGetters = await pool.run({
      code: "const e = new Error('hidden'); Object.defineProperty(e, 'message', { get() { throw new Error('again') } }); Object.defineProperty(e, 'name', { get() { throw 1 } }); Object.defineProperty(e, 'stack', { get() { throw 2 } }); throw e;",
      scope: {},
    });
    expect(throwingGetters).toMatchObject({ ok: false, error: { kind: "exception" } });
    const loopingGetter = await pool.run({ code: "throw { get message() { for (;;) {} } }", scope: {}, limits: { timeMs: 300 } });
    expect(loopingGetter).toMatchObject({ ok: false, error: { kind: "time-limit" } });
  });
});

describe("results that are not JSON", () => {
  it.each([
    ["no return", "const a = 1;", /returned undefined/],
    ["a function", "return () => 1", /value of type function/],
    ["a Symbol", "return Symbol('s')", /value of type symbol/],
    ["a BigInt", "return { n: 10n }", /BigInt/],
    ["a cycle", "const a = {}; a.self = a; return a", /circular/],
    ["a Promise that never settles", "return new Promise(() => {})", /never settled/],
  ])("refuses %s", async (_label, code, message) => {
    const outcome = await pool.run({ code, scope: {} });
    expect(outcome).toMatchObject({ ok: false, error: { kind: "not-json" } });
    if (!outcome.ok) expect(outcome.error.message).toMatch(message);
  });
});

describe("limits", () => {
  it("stops an endless loop at its time limit, and the host stays responsive", async () => {
    const started = performance.now();
    const { result, gapMs } = await longestEventLoopGap(() => pool.run({ code: "for (;;) {}", scope: {}, limits: { timeMs: 500 } }));
    expect(result).toMatchObject({ ok: false, error: { kind: "time-limit", message: "the code ran past its time limit of 500 ms" } });
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(gapMs).toBeLessThan(250);
    expect(valueOf(await pool.run({ code: "return 'next'", scope: {} }))).toBe("next");
  });

  it("stops a memory bomb at its memory limit, and the host stays responsive", async () => {
    const { result, gapMs } = await longestEventLoopGap(() =>
      pool.run({ code: "const grow = []; for (;;) grow.push({ n: grow.length, s: 'x' + grow.length });", scope: {}, limits: { memoryBytes: 16 * 1024 * 1024, timeMs: 20_000 } }),
    );
    expect(result).toMatchObject({ ok: false, error: { kind: "memory-limit", message: "the code ran out of its memory limit of 16 MiB" } });
    expect(gapMs).toBeLessThan(250);
    const growingString = await pool.run({ code: "let s = 'x'; for (;;) { s = s + s; s.charCodeAt(s.length - 1); }", scope: {}, limits: { memoryBytes: 16 * 1024 * 1024 } });
    expect(growingString).toMatchObject({ ok: false, error: { kind: "memory-limit" } });
    expect(valueOf(await pool.run({ code: "return 'next'", scope: {} }))).toBe("next");
  });

  it("stops deep recursion at its stack limit, catchable by the code like any error", async () => {
    expect(await pool.run({ code: "function down(n) { return down(n + 1) + 1 }\nreturn down(0)", scope: {} })).toMatchObject({ ok: false, error: { kind: "stack-limit" } });
    expect(valueOf(await pool.run({ code: "function down(n) { return down(n + 1) + 1 }\ntry { down(0) } catch (e) { return e.message }", scope: {} }))).toBe("stack overflow");
    // Data nested beyond what JSON.stringify's native recursion can hold: the worker is replaced, the answer is the same.
    expect(await pool.run({ code: "let a = []; for (let i = 0; i < 100000; i++) a = [a]; return a", scope: {} })).toMatchObject({ ok: false, error: { kind: "stack-limit" } });
    expect(valueOf(await pool.run({ code: "return 'next'", scope: {} }))).toBe("next");
  });

  it("refuses a 100 MB result at the output limit", async () => {
    const started = performance.now();
    const outcome = await pool.run({ code: "const kilobyte = 'x'.repeat(1024); return new Array(100 * 1024).fill(kilobyte);", scope: {}, limits: { timeMs: 5_000 } });
    expect(outcome).toMatchObject({ ok: false, error: { kind: "output-limit", message: "the result is larger than the output limit of 5 MiB as JSON" } });
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(await pool.run({ code: "return 'é'.repeat(600)", scope: {}, limits: { outputBytes: 1_000 } })).toMatchObject({ ok: false, error: { kind: "output-limit" } });
    const each = await pool.runEach({ code: "return 'x'.repeat(400)", scope: {}, items: [1, 2, 3], limits: { outputBytes: 1_000 } });
    expect(each).toMatchObject({ ok: false, error: { kind: "output-limit" } });
    expect(valueOf(await pool.run({ code: "return 'next'", scope: {} }))).toBe("next");
  });

  it("ends a 1 GB string and a regular expression that backtracks catastrophically, each within its limit", async () => {
    const started = performance.now();
    const gigabyte = await pool.run({ code: "const text = 'x'.repeat(1024 * 1024 * 1024);\nreturn text.indexOf('y');", scope: {}, limits: { timeMs: 500 } });
    expect(gigabyte).toMatchObject({ ok: false, error: { kind: "exception", message: "RangeError: invalid string length", line: 1 } });
    const halfGigabyte = await pool.run({ code: "const text = 'x'.repeat(512 * 1024 * 1024);\nreturn text.charCodeAt(text.length - 1);", scope: {}, limits: { timeMs: 2_000 } });
    expect(halfGigabyte).toMatchObject({ ok: false, error: { kind: "memory-limit" } });
    const backtracking = await pool.run({ code: "return /^(a+)+$/.test('a'.repeat(40) + 'b');", scope: {}, limits: { timeMs: 500 } });
    expect(backtracking).toMatchObject({ ok: false, error: { kind: "time-limit" } });
    expect(performance.now() - started).toBeLessThan(2 * (500 + 2_000 + 500));
    expect(valueOf(await pool.run({ code: "return 'next'", scope: {} }))).toBe("next");
  });

  it("refuses input larger than the memory limit before it reaches a worker", async () => {
    const outcome = await pool.run({ code: "return 1", scope: { inputs: "x".repeat(2_000) }, limits: { memoryBytes: 1_000 } });
    expect(outcome).toMatchObject({ ok: false, error: { kind: "memory-limit" } });
  });
});

describe("workers", () => {
  it("replaces a worker killed under a job, whose job fails with a clear error", async () => {
    const own = new SandboxPool({ size: 1 });
    try {
      valueOf(await own.run({ code: "return 1", scope: {} }));
      const [pid] = own.pids;
      const running = own.run({ code: "for (;;) {}", scope: {}, limits: { timeMs: 60_000 } });
      process.kill(pid!, "SIGKILL");
      const outcome = await running;
      expect(outcome).toMatchObject({ ok: false, error: { kind: "worker-crashed" } });
      if (!outcome.ok) expect(outcome.error.message).toMatch(/SIGKILL/);
      expect(valueOf(await own.run({ code: "return 2", scope: {} }))).toBe(2);
      expect(own.pids).not.toContain(pid);
    } finally {
      await own.close();
    }
  });

  it("cancels a running job (its worker killed) and a queued one (never started)", async () => {
    const own = new SandboxPool({ size: 1 });
    try {
      valueOf(await own.run({ code: "return 1", scope: {} }));
      const [pid] = own.pids;
      const running = new AbortController();
      const queued = new AbortController();
      const first = own.run({ code: "for (;;) {}", scope: {}, limits: { timeMs: 60_000 } }, { signal: running.signal });
      const second = own.run({ code: "return 'never'", scope: {} }, { signal: queued.signal });
      queued.abort();
      expect(await second).toMatchObject({ ok: false, error: { kind: "cancelled", message: "the code was cancelled before it started" } });
      running.abort();
      expect(await first).toMatchObject({ ok: false, error: { kind: "cancelled", message: "the code was cancelled while it ran" } });
      await waitFor(() => !isAlive(pid!), 20_000, "the cancelled job's worker gone");
      const aborted = AbortSignal.abort();
      expect(await own.run({ code: "return 1", scope: {} }, { signal: aborted })).toMatchObject({ ok: false, error: { kind: "cancelled" } });
      expect(valueOf(await own.run({ code: "return 3", scope: {} }))).toBe(3);
    } finally {
      await own.close();
    }
  });

  it("queues jobs beyond its size and reuses its workers", async () => {
    const own = new SandboxPool({ size: 2 });
    try {
      const outcomes = await Promise.all(Array.from({ length: 8 }, (_, index) => own.run({ code: "return index * 2", scope: { index } })));
      expect(outcomes.map(valueOf)).toEqual([0, 2, 4, 6, 8, 10, 12, 14]);
      expect(own.pids.length).toBeLessThanOrEqual(2);
    } finally {
      await own.close();
    }
  });

  it("close() ends every worker and waits until they have gone", async () => {
    const own = new SandboxPool({ size: 2 });
    await Promise.all([own.run({ code: "return 1", scope: {} }), own.run({ code: "return 2", scope: {} })]);
    const running = own.run({ code: "for (;;) {}", scope: {}, limits: { timeMs: 60_000 } });
    const pids = own.pids;
    expect(pids.length).toBeGreaterThan(0);
    await own.close();
    expect(await running).toMatchObject({ ok: false, error: { kind: "cancelled" } });
    for (const pid of pids) expect(isAlive(pid)).toBe(false);
    await expect(own.run({ code: "return 1", scope: {} })).rejects.toThrow(/closed/);
  });

  it("refuses a scope key that is not an identifier", async () => {
    await expect(pool.run({ code: "return 1", scope: { "not a name": 1 } })).rejects.toThrow(/identifier/);
  });
});
