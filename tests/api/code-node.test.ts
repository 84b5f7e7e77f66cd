import { describe, expect, it } from "vitest";
import { ApiClient, type Json } from "./api-client";
import { setupStudioServer } from "./studio-server";

/**
 * Code steps on the built server over HTTP: a syntax error is a validation problem with its place; each bomb (an
 * endless loop, a memory bomb, a fork-bomb-shaped recursion, a 100 MB result) ends its step within twice its time
 * limit with the limit named, while the studio keeps answering other requests quickly (measured by the latency of
 * requests made meanwhile); the next run works; a stored secret's name in code stays text.
 */

const server = setupStudioServer();
const TIME_LIMIT_MS = 2_000;

/** Run inputs → the code → Output of its result. */
function codeWorkflow(name: string, code: string, timeLimitMs = TIME_LIMIT_MS) {
  return {
    name,
    nodes: [
      { id: "in", kind: "input", fields: [] },
      { id: "code", kind: "code", code, timeLimitMs },
      { id: "out", kind: "output", value: "{{ nodes.code.data }}" },
    ],
    edges: [
      { id: "a", source: "in", target: "code" },
      { id: "b", source: "code", target: "out" },
    ],
  };
}

/** Runs `code` and, until its run ends, asks the studio for its tool catalog again and again: the slowest answer. */
async function runWhileAsking(api: ApiClient, name: string, code: string, timeLimitMs: number): Promise<{ run: Json; slowestAnswerMs: number; answers: number }> {
  const workflow = await api.createWorkflow(codeWorkflow(name, code, timeLimitMs));
  const started = await api.startRun(workflow.id);
  let finished: Json = null;
  let slowestAnswerMs = 0;
  let answers = 0;
  while (!finished) {
    const asked = performance.now();
    const catalog = await api.get("/api/tools");
    expect(catalog.status).toBe(200);
    slowestAnswerMs = Math.max(slowestAnswerMs, performance.now() - asked);
    answers += 1;
    const run = await api.getRun(started.id);
    if (["succeeded", "failed", "cancelled"].includes(run.status)) finished = run;
  }
  return { run: finished, slowestAnswerMs, answers };
}

const stepOf = (run: Json) => run.steps.find((step: Json) => step.nodeId === "code");
const stepMs = (step: Json) => Date.parse(step.finishedAt) - Date.parse(step.startedAt);

describe("a Code step over HTTP", () => {
  it("is checked before it runs: a syntax error is a problem on its code field, with its line and column", async () => {
    const api = server.client();
    const { problems } = await api.expect(200, "POST", "/api/workflows/validate", codeWorkflow("Broken", "const a = 1;\nreturn a +;"));
    expect(problems).toContainEqual({ nodeId: "code", field: "code", severity: "error", message: expect.stringMatching(/^Line 2, column \d+: SyntaxError/), at: { line: 2, column: expect.any(Number) } });
  });

  it.each([
    // The time limit's own bomb, and three that another limit stops: their time limit is generous (a loaded machine
    // takes seconds to build 100 MB of JSON), so what ends them is the limit they run into.
    ["an endless loop", "for (;;) {}", TIME_LIMIT_MS, /time limit of 2,000 ms/],
    ["a memory bomb", "let text = 'x';\nfor (;;) { text = text + text; text.charCodeAt(text.length - 1); }", 5 * TIME_LIMIT_MS, /memory limit of 64 MiB/],
    ["a fork-bomb-shaped recursion", "function fork(n) { return fork(n + 1) + fork(n + 2); }\nreturn fork(0);", 5 * TIME_LIMIT_MS, /stack/],
    ["a 100 MB result", "const kilobyte = 'x'.repeat(1024);\nreturn new Array(100 * 1024).fill(kilobyte);", 5 * TIME_LIMIT_MS, /output limit of 5 MiB/],
  ] as const)("ends %s within twice its time limit, naming the limit it hit, while the studio answers", async (name, code, timeLimitMs, message) => {
    const api = server.client();
    const { run, slowestAnswerMs, answers } = await runWhileAsking(api, `Bomb: ${name}`, code, timeLimitMs);
    expect(run.status).toBe("failed");
    const step = stepOf(run);
    expect(step.error).toMatch(message);
    expect(stepMs(step)).toBeLessThan(2 * timeLimitMs);
    // Other requests were answered meanwhile, each well within the limit the code ran up against.
    expect(answers).toBeGreaterThan(0);
    expect(slowestAnswerMs).toBeLessThan(TIME_LIMIT_MS / 2);
    // And the next run works.
    const after = await api.startRun((await api.createWorkflow(codeWorkflow(`After ${name}`, "return [1, 2, 3].map((n) => n * 2);"))).id);
    expect((await api.waitForRun(after.id)).output).toEqual([2, 4, 6]);
  });

  it("reads a stored secret's ${NAME} as text: its value never enters the sandbox", async () => {
    const api = server.client();
    const stored = await api.post("/api/secrets", { name: "CODE_NODE_SECRET", value: "the-planted-value-7f3a", description: "planted" });
    expect(stored.status).toBe(201);
    const workflow = await api.createWorkflow(codeWorkflow("Secret as text", "return ['${CODE_NODE_SECRET}', typeof process, typeof require];"));
    const run = await api.waitForRun((await api.startRun(workflow.id)).id);
    expect(run.output).toEqual(["${CODE_NODE_SECRET}", "undefined", "undefined"]);
    expect(JSON.stringify(run)).not.toContain("the-planted-value-7f3a");
  });
});
