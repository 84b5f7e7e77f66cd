import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { catalogEntry } from "@/lib/server/tool-catalog";
import { allTools, secretsFromRecord, ToolPool } from "@/lib/tools";
import { scriptedModel } from "@/lib/workflow/agent/test-support";
import { validateWorkflow } from "@/lib/workflow/validate";
import { draftWorkflow, GoalRefused, throttled, type ArchitectEvent } from "./architect";
import { MAX_GOAL_CHARACTERS } from "@/lib/contracts/architect";

const pool = new ToolPool(allTools());
const vocabulary = { tools: allTools().map(catalogEntry), secretNames: ["SHOP_DB"] };
const secrets = secretsFromRecord({ SHOP_DB: "sqlite:///tmp/shop.db" });
const validate = async (definition: unknown) => (await validateWorkflow(definition, { pool, secrets })).problems;
const GOAL = "Every morning, read yesterday's orders from the shop database and write a summary to reports/.";

type DraftJson = Record<string, unknown> & { nodes: Record<string, unknown>[]; edges: Record<string, unknown>[] };

/** A sound draft; `change` makes it wrong in one way. */
function draft(change: (value: DraftJson) => void = () => {}) {
  const value = {
    name: "Morning orders summary",
    description: "",
    mode: "default",
    plan: [
      { step: "Every morning at 7", reason: "The goal names a time.", nodeIds: ["morning"] },
      { step: "Read yesterday's orders", reason: "The shop database.", capability: "db.query", nodeIds: ["orders"] },
      { step: "Write the summary", reason: "A file in reports/.", capability: "file.write", nodeIds: ["summary"] },
    ],
    nodes: [
      { id: "morning", kind: "schedule", form: "cron", cron: "0 7 * * *", timezone: "UTC" },
      { id: "orders", kind: "tool", tool: "sql", operation: "query", arguments: { dsn: "${SHOP_DB}", sql: "SELECT * FROM orders", limit: 100 } },
      { id: "summary", kind: "tool", tool: "write_file", operation: null, arguments: { path: "reports/orders.md", content: "{{ nodes.orders.output }}" } },
    ] as Record<string, unknown>[],
    edges: [
      { from: "morning", to: "orders" },
      { from: "orders", to: "summary" },
    ] as Record<string, unknown>[],
  };
  change(value);
  return JSON.stringify(value);
}

async function collect(events: AsyncGenerator<ArchitectEvent>): Promise<ArchitectEvent[]> {
  const all: ArchitectEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

const last = (events: ArchitectEvent[]) => events[events.length - 1]!;
/** What the model was sent in its `call`-th request, as text. */
const sent = (model: MockLanguageModelV3, call: number) => JSON.stringify(model.doStreamCalls[call]!.prompt);

describe("the Architect", () => {
  it("drafts a sound workflow in one round, streaming it, and leaves the settings for the person", async () => {
    const model = scriptedModel([{ text: draft() }]);
    const events = await collect(draftWorkflow({ goal: GOAL, vocabulary, model, validate }));
    expect(events[0]).toEqual({ type: "round", round: 1 });
    expect(events.some((event) => event.type === "partial")).toBe(true);
    const done = last(events);
    if (done.type !== "done") throw new Error(JSON.stringify(done));
    expect(done.rounds).toBe(1);
    expect(done.problems.filter((problem) => problem.for === "model")).toEqual([]);
    // write_file's root folder is the person's to choose: said, never asked of the model.
    expect(done.problems).toContainEqual(expect.objectContaining({ nodeId: "summary", path: "settings.root", for: "person" }));
    expect(done.definition?.nodes.map((node) => node.id)).toEqual(["morning", "orders", "summary"]);
    expect(done.usage.outputTokens).toBeGreaterThan(0);
    // What the model was told: the catalog and the stored secrets' names, never their values.
    expect(sent(model, 0)).toContain("write_file");
    expect(sent(model, 0)).toContain("${SHOP_DB}");
    expect(sent(model, 0)).not.toContain("/tmp/shop.db");
  });

  it.each([
    ["a tool that does not exist", (value: DraftJson) => void (value.nodes[1]!.tool = "send_email"), /nodes\[1\]\.tool: Invalid discriminator value/],
    ["another tool's operation", (value: DraftJson) => void (value.nodes[1]!.operation = "run"), /nodes\[1\]\.operation: /],
    ["a literal API key", (value: DraftJson) => void ((value.nodes[2]!.arguments as Record<string, string>).content = "sk-proj-abcdefghijklmnopqrstuvwxyz0123"), /looks like an API key/],
    ["mode bypass", (value: DraftJson) => void (value.mode = "bypass"), /^- mode: /m],
    ["a cycle", (value: DraftJson) => void value.edges.push({ from: "summary", to: "orders" }), /cycle/i],
    ["an edge to a missing node", (value: DraftJson) => void value.edges.push({ from: "summary", to: "mail" }), /mail/],
    ["a tool that does not do the step's need", (value: DraftJson) => void (value.nodes[2] = { id: "summary", kind: "tool", tool: "read_file", operation: null, arguments: { path: "x" } }), /file\.write.*write_file/],
  ])("sends %s back with its path, and takes the repaired draft", async (_name, spoil, expected) => {
    const model = scriptedModel([{ text: draft(spoil) }, { text: draft() }]);
    const events = await collect(draftWorkflow({ goal: GOAL, vocabulary, model, validate }));
    const checked = events.filter((event) => event.type === "checked");
    expect(checked).toHaveLength(2);
    expect(checked[0]!.problems.some((problem) => problem.for === "model")).toBe(true);
    // The repair request names the problem where it is.
    expect(JSON.parse(sent(model, 1)).at(-1).content[0].text).toMatch(expected);
    const done = last(events);
    expect(done.type === "done" && done.rounds).toBe(2);
    expect(done.type === "done" && done.problems.filter((problem) => problem.for === "model")).toEqual([]);
  });

  it("shows what it could not repair after its last round, on the draft, never applied silently", async () => {
    const cyclic = draft((value) => value.edges.push({ from: "summary", to: "orders" }));
    const model = scriptedModel([{ text: cyclic }, { text: cyclic }, { text: cyclic }]);
    const done = last(await collect(draftWorkflow({ goal: GOAL, vocabulary, model, validate, maxRounds: 3 })));
    if (done.type !== "done") throw new Error(JSON.stringify(done));
    expect(done.rounds).toBe(3);
    expect(model.doStreamCalls).toHaveLength(3);
    expect(done.problems.filter((problem) => problem.for === "model").map((problem) => problem.message).join(" ")).toMatch(/cycle/i);
  });

  it("keeps the partial draft and says so when the answer is not JSON after every round", async () => {
    const model = scriptedModel([{ text: "Sure! Here is your workflow:" }]);
    const done = last(await collect(draftWorkflow({ goal: GOAL, vocabulary, model, validate, maxRounds: 1 })));
    expect(done).toMatchObject({ type: "done", draft: null, problems: [{ path: "(answer)", message: expect.stringMatching(/^not JSON/) }] });
  });

  it("says a provider error plainly, and Stop ends it with nothing applied", async () => {
    const failing = new MockLanguageModelV3({
      doStream: async () => {
        throw new Error("401 Unauthorized: invalid API key");
      },
    });
    expect(last(await collect(draftWorkflow({ goal: GOAL, vocabulary, model: failing, validate })))).toMatchObject({
      type: "failed",
      error: expect.stringMatching(/^The model could not be asked: .*401 Unauthorized/),
    });

    const stop = new AbortController();
    stop.abort();
    expect(last(await collect(draftWorkflow({ goal: GOAL, vocabulary, model: scriptedModel([{ text: draft() }]), validate, signal: stop.signal })))).toMatchObject({
      type: "failed",
      error: expect.stringMatching(/^Stopped: nothing was applied/),
    });
  });

  it("refuses an empty goal and one over the limit before any model call", async () => {
    const model = scriptedModel([{ text: draft() }]);
    await expect(collect(draftWorkflow({ goal: "  ", vocabulary, model, validate }))).rejects.toThrow(GoalRefused);
    await expect(collect(draftWorkflow({ goal: "x".repeat(MAX_GOAL_CHARACTERS + 1), vocabulary, model, validate }))).rejects.toThrow(/at most 8,000 characters/);
    expect(model.doStreamCalls).toHaveLength(0);
  });
});

describe("a streaming answer handed on", () => {
  it("hands on the newest part at most every interval, and the newest again when the model pauses", async () => {
    let resume!: () => void;
    const paused = new Promise<void>((resolve) => (resume = resolve));
    async function* answer() {
      yield "a";
      yield "ab";
      yield "abc";
      await paused;
      yield "abcd";
    }
    const handed: string[] = [];
    const reading = (async () => {
      for await (const part of throttled(answer(), 50)) {
        handed.push(part);
        // The pause: what came before it is handed on although the interval has not passed (the trailing edge).
        if (part === "abc") resume();
      }
    })();
    // Without the trailing edge this waits for ever: "abc" is held until the interval, and the pause never ends.
    await expect.poll(() => handed, { timeout: 30_000 }).toContain("abc");
    await reading;
    expect(handed[0]).toBe("a");
    expect(handed.at(-1)).toBe("abcd");
  }, 180_000);
});
