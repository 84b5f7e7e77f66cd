import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { defaultPool, secretsFromRecord } from "@/lib/tools";
import { validateWorkflow } from "./validate";

const options = {
  pool: defaultPool(),
  secrets: secretsFromRecord({ GOOD_DB: "postgresql://app:pw@127.0.0.1:5432/app", BAD_DB: "not a url" }),
};

const base = {
  name: "Nightly report",
  nodes: [
    { id: "in", kind: "input", fields: [{ name: "topic" }] },
    { id: "write", kind: "tool", tool: "write_file", settings: { root: "/tmp" }, arguments: { path: "{{ inputs.topic }}.md", content: "x" } },
    { id: "out", kind: "output", value: "{{ nodes.write.output }}" },
  ],
  edges: [
    { id: "e1", source: "in", target: "write" },
    { id: "e2", source: "write", target: "out" },
  ],
};

describe("validateWorkflow", () => {
  it("accepts a sound workflow", async () => {
    const result = await validateWorkflow(base, options);
    expect(result.problems).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("says on the field that a step's folder must be absolute, as the run would refuse it", async () => {
    const relative = { ...base, nodes: base.nodes.map((node) => (node.id === "write" ? { ...node, settings: { root: "reports" } } : node)) };
    const result = await validateWorkflow(relative, options);
    expect(result.valid).toBe(false);
    expect(result.problems).toEqual([
      expect.objectContaining({ nodeId: "write", field: "settings.root", message: expect.stringContaining('absolute folder path, got "reports"') }),
    ]);
  });

  it("warns about a setting the tool does not have, and a step folder that does not exist yet, without refusing the run", async () => {
    const withWrite = (settings: Record<string, unknown>) => ({ ...base, nodes: base.nodes.map((node) => (node.id === "write" ? { ...node, settings } : node)) });
    const result = await validateWorkflow(withWrite({ root: "/tmp", bogus: 1 }), options);
    expect(result.valid).toBe(true);
    expect(result.problems).toEqual([
      expect.objectContaining({ nodeId: "write", field: "settings.bogus", severity: "warning", message: expect.stringContaining('no setting "bogus"; it is ignored') }),
    ]);
    const missing = await validateWorkflow(withWrite({ root: "/tmp/no-such-folder-for-validation" }), options);
    expect(missing.valid).toBe(true);
    expect(missing.problems).toEqual([
      expect.objectContaining({ field: "settings.root", severity: "warning", message: expect.stringContaining("does not exist (yet)") }),
    ]);
  });

  it("refuses a step whose required input is bound to nothing, which could only fail at run time", async () => {
    const unbound = { ...base, nodes: base.nodes.map((node) => (node.id === "write" ? { ...node, arguments: { path: "a.md" } } : node)) };
    const result = await validateWorkflow(unbound, options);
    expect(result.valid).toBe(false);
    expect(result.problems).toEqual([expect.objectContaining({ nodeId: "write", field: "arguments.content", severity: "error", message: expect.stringContaining('needs "content"') })]);
  });

  it("reports every problem at once, each with its node and field", async () => {
    const result = await validateWorkflow(
      {
        ...base,
        nodes: [
          ...base.nodes.slice(0, 2),
          { id: "out", kind: "output", value: "{{ nodes.later.output }} {{ inputs.missing }}" },
          { id: "later", kind: "tool", tool: "teleport" },
          { id: "q", kind: "tool", tool: "sql", operation: "drop_everything" },
          { id: "w2", kind: "tool", tool: "write_file", settings: {}, arguments: { nonsense: 1 } },
        ],
        edges: [...base.edges, { id: "e3", source: "write", target: "later" }, { id: "e4", source: "write", target: "q" }, { id: "e5", source: "in", target: "w2" }],
      },
      options,
    );
    const summary = result.problems.map((problem) => `${problem.nodeId}|${problem.field}|${problem.message}`);
    expect(result.valid).toBe(false);
    expect(summary).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^out\|value\|\{\{ nodes\.later\.output \}\}: node "later" is not upstream/),
        expect.stringMatching(/^out\|value\|\{\{ inputs\.missing \}\}: the run has no input "missing"/),
        expect.stringMatching(/^later\|tool\|Unknown tool "teleport"\. Known tools: read_file/),
        expect.stringMatching(/^q\|operation\|SQL Database has no operation "drop_everything"; expected one of test_connection, list_tables, table_schema, query/),
        expect.stringMatching(/^w2\|settings\.root\|/),
        expect.stringMatching(/^w2\|arguments\.nonsense\|Write a File has no input "nonsense"/),
      ]),
    );
  });

  it("names on its field a template pointing at nothing: no such node, a node not upstream, an input not declared, with what was expected", async () => {
    const result = await validateWorkflow(
      {
        ...base,
        nodes: [
          { id: "in", kind: "input", fields: [{ name: "topic" }, { name: "day" }] },
          { ...base.nodes[1]!, arguments: { path: "{{ nodes.ghost.data.name }}.md", content: "{{ inputs.city }} {{ nodes.out.output }}" } },
          { id: "out", kind: "output", value: "{{ nodes.write.data.rows[0] }}" },
          { id: "side", kind: "output", value: "{{ nodes.write.output }}" },
          { id: "later", kind: "output", value: "{{ nodes.side.output }}" },
        ],
        edges: [...base.edges, { id: "e3", source: "in", target: "side" }, { id: "e4", source: "out", target: "later" }],
      },
      options,
    );
    expect(result.valid).toBe(false);
    expect(result.problems.map(({ nodeId, field, message }) => ({ nodeId, field, message }))).toEqual([
      { nodeId: "write", field: "arguments.path", message: '{{ nodes.ghost.data.name }}: there is no node "ghost"; expected a node upstream of this one (none is yet).' },
      { nodeId: "write", field: "arguments.content", message: '{{ inputs.city }}: the run has no input "city"; declared: topic, day; or add it to the input node.' },
      { nodeId: "write", field: "arguments.content", message: '{{ nodes.out.output }}: node "out" is not upstream of this node; connect it first, or use a node upstream of this one (none is yet).' },
      { nodeId: "side", field: "value", message: '{{ nodes.write.output }}: node "write" is not upstream of this node; connect it first, or use a node upstream of this one (none is yet).' },
      { nodeId: "later", field: "value", message: '{{ nodes.side.output }}: node "side" is not upstream of this node; connect it first, or use a node upstream of this one: write, out.' },
    ]);
  });

  it("reports shape and meaning problems together: a node missing its tool, a root of 5, an edge to nowhere, a cycle, an unknown operation", async () => {
    const result = await validateWorkflow(
      {
        name: "Many faults",
        nodes: [
          { id: "in", kind: "input", fields: [] },
          { id: "t", kind: "tool" },
          { id: "w", kind: "tool", tool: "write_file", settings: { root: 5 }, arguments: { path: "a.md", content: "x" } },
          { id: "q", kind: "tool", tool: "sql", operation: "nope" },
          { id: "a", kind: "output", value: "a" },
          { id: "b", kind: "output", value: "b" },
        ],
        edges: [
          { id: "e1", source: "in", target: "t" },
          { id: "e2", source: "t", target: "w" },
          { id: "e3", source: "in", target: "q" },
          { id: "e4", source: "w", target: "ghost" },
          { id: "e5", source: "a", target: "b" },
          { id: "e6", source: "b", target: "a" },
        ],
      },
      options,
    );
    expect(result.valid).toBe(false);
    const where = result.problems.map((problem) => `${problem.nodeId}|${problem.field}`);
    expect(where).toEqual(
      expect.arrayContaining(["t|tool", "w|settings.root", "null|edges[3].target", "a|null", "b|null", "q|operation"]),
    );
    // The stand-in for the node without a shape adds nothing of its own, and nothing downstream of it reads as unreachable.
    expect(result.problems.filter((problem) => problem.nodeId === "t")).toHaveLength(1);
    expect(result.problems.some((problem) => problem.nodeId === "w" && /Nothing leads/.test(problem.message))).toBe(false);
    expect(result.definition).toBeNull();
  });

  it("derives secret requirements and tells set from usable", async () => {
    const sqlNode = (id: string, dsn: string) => ({ id, kind: "tool", tool: "sql", operation: "list_tables", arguments: { dsn } });
    const result = await validateWorkflow(
      {
        name: "db",
        nodes: [sqlNode("good", "${GOOD_DB}"), sqlNode("bad", "${BAD_DB}"), sqlNode("unset", "${NOPE}"), sqlNode("plain", "postgresql://u:p@h/d")],
        edges: [],
      },
      options,
    );
    expect(result.requirements).toEqual([
      { nodeId: "good", kind: "secret", name: "GOOD_DB", field: "dsn", satisfied: true, problem: "" },
      { nodeId: "bad", kind: "secret", name: "BAD_DB", field: "dsn", satisfied: false, problem: expect.stringContaining("is not a database connection URL") },
      { nodeId: "unset", kind: "secret", name: "NOPE", field: "dsn", satisfied: false, problem: "is not set" },
    ]);
    expect(result.problems.find((problem) => problem.nodeId === "plain")).toMatchObject({ severity: "error", field: "arguments.dsn" });
    expect(JSON.stringify(result)).not.toContain("app:pw");
  });

  it("finds cycles and unreachable nodes", async () => {
    const result = await validateWorkflow(
      {
        name: "loops",
        nodes: [
          { id: "in", kind: "input" },
          { id: "a", kind: "output" },
          { id: "b", kind: "output" },
          { id: "lonely", kind: "output" },
        ],
        edges: [
          { id: "1", source: "in", target: "a" },
          { id: "2", source: "a", target: "b" },
          { id: "3", source: "b", target: "a" },
        ],
      },
      options,
    );
    const byNode = (id: string) => result.problems.filter((problem) => problem.nodeId === id).map((problem) => problem.message);
    expect(byNode("a")).toContainEqual(expect.stringContaining("cycle"));
    expect(byNode("b")).toContainEqual(expect.stringContaining("cycle"));
    expect(byNode("lonely")).toEqual([expect.stringContaining("Nothing leads to this node")]);
  });

  it("attributes schema errors to the node they sit in", async () => {
    const result = await validateWorkflow({ name: "", nodes: [{ id: "x", kind: "tool", tool: 5 }], edges: [] }, options);
    expect(result.definition).toBeNull();
    expect(result.problems).toEqual([
      expect.objectContaining({ nodeId: null, field: "name", message: "give the workflow a name" }),
      expect.objectContaining({ nodeId: "x", field: "tool", message: "expected string, received number" }),
    ]);
    const dangling = await validateWorkflow({ name: "n", nodes: [{ id: "x", kind: "output" }], edges: [{ id: "e", source: "x", target: "ghost" }] }, options);
    expect(dangling.problems).toEqual([expect.objectContaining({ nodeId: null, field: "edges[0].target", message: 'no node with id "ghost"' })]);
  });

  it("checks router edges follow a route", async () => {
    const result = await validateWorkflow(
      {
        name: "route",
        nodes: [
          { id: "r", kind: "router", routes: [{ id: "big", value: "1", operator: "is_true" }] },
          { id: "o", kind: "output" },
        ],
        edges: [{ id: "e", source: "r", target: "o", sourceHandle: "small" }],
      },
      options,
    );
    expect(result.problems).toEqual([expect.objectContaining({ nodeId: "r", field: "edges[0].sourceHandle" })]);
  });
});

describe("validateWorkflow on agent nodes", () => {
  const agentWorkflow = (agent: Record<string, unknown>, extraNodes: Record<string, unknown>[] = [], extraEdges: Record<string, unknown>[] = []) => ({
    name: "Agent",
    nodes: [
      { id: "in", kind: "input", fields: [{ name: "topic" }] },
      { id: "agent", kind: "agent", provider: "openai", model: "gpt-4.1-mini", apiKey: "${GOOD_KEY}", task: "Write about {{ inputs.topic }}.", ...agent },
      { id: "db", kind: "tool", tool: "sql", operation: "query", arguments: { dsn: "${GOOD_DB}" } },
      ...extraNodes,
    ],
    edges: [{ id: "e1", source: "in", target: "agent" }, { id: "e2", source: "db", target: "agent" }, ...extraEdges],
  });
  const agentOptions = { ...options, secrets: secretsFromRecord({ GOOD_DB: "postgresql://app:pw@127.0.0.1:5432/app", GOOD_KEY: "sk-1" }) };

  it("accepts an agent with an attached tool, which need not be reachable from the input", async () => {
    const result = await validateWorkflow(agentWorkflow({}), agentOptions);
    expect(result.problems).toEqual([]);
    expect(result.requirements).toContainEqual(expect.objectContaining({ nodeId: "agent", name: "GOOD_KEY", field: "apiKey", satisfied: true }));
  });

  it("names each missing or unsafe field", async () => {
    const result = await validateWorkflow(agentWorkflow({ model: "", apiKey: "sk-literal", task: "", maxTurns: 500 }), agentOptions);
    const fields = result.problems.filter((problem) => problem.nodeId === "agent").map((problem) => problem.field);
    expect(fields).toEqual(expect.arrayContaining(["model", "apiKey", "task", "maxTurns"]));
    expect(result.problems.find((problem) => problem.field === "apiKey")?.message).toContain("plain text");
  });

  it("needs a base URL for an OpenAI-compatible server, but no key", async () => {
    const result = await validateWorkflow(agentWorkflow({ provider: "openai_compatible", apiKey: undefined }), agentOptions);
    expect(result.problems).toEqual([expect.objectContaining({ nodeId: "agent", field: "baseUrl" })]);
  });

  it("refuses edges into an attached tool and a control tool attached by hand", async () => {
    const result = await validateWorkflow(
      agentWorkflow({}, [{ id: "finishing", kind: "tool", tool: "finish" }], [
        { id: "e3", source: "in", target: "db" },
        { id: "e4", source: "finishing", target: "agent" },
      ]),
      agentOptions,
    );
    expect(result.problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ nodeId: "db", message: expect.stringContaining("nothing may feed it") }),
        expect.objectContaining({ nodeId: "finishing", field: "tool", message: expect.stringContaining("Every agent has finish") }),
      ]),
    );
  });
});

describe("validateWorkflow on failure handling", () => {
  const withWrite = (execution: Record<string, unknown>, edges = base.edges) => ({
    ...base,
    nodes: base.nodes.map((node) => (node.id === "write" ? { ...node, execution } : node)),
    edges,
  });
  const errorEdge = { id: "e3", source: "write", target: "out", sourceHandle: "error" };

  it("accepts an error path with its error edge", async () => {
    const result = await validateWorkflow(withWrite({ onError: "error-edge", retry: { maxAttempts: 3 } }, [...base.edges, errorEdge]), options);
    expect(result.problems).toEqual([]);
    expect(result.definition?.nodes[1]).toMatchObject({ execution: { onError: "error-edge", retry: { maxAttempts: 3, initialDelayMs: 1000, factor: 2 } } });
  });

  it("names the field of an error path without an error edge, and of an error edge out of a node that does not follow one", async () => {
    const missing = await validateWorkflow(withWrite({ onError: "error-edge" }), options);
    expect(missing.problems).toEqual([
      expect.objectContaining({ nodeId: "write", field: "execution.onError", message: expect.stringContaining("connect this node's red error handle") }),
    ]);
    const stray = await validateWorkflow(withWrite({ onError: "continue" }, [...base.edges, errorEdge]), options);
    expect(stray.problems).toEqual([
      expect.objectContaining({ nodeId: "write", field: "edges[2].sourceHandle", message: expect.stringContaining("does not follow its error path") }),
    ]);
    const fromInput = await validateWorkflow({ ...base, edges: [...base.edges, { id: "e3", source: "in", target: "out", sourceHandle: "error" }] }, options);
    expect(fromInput.problems).toContainEqual(expect.objectContaining({ nodeId: "in", field: "edges[2].sourceHandle", message: expect.stringContaining("Run inputs nodes have no error handle") }));
  });

  it("refuses bad retry settings by field, and a workflow default that would be an error path", async () => {
    const bad = await validateWorkflow(withWrite({ retry: { maxAttempts: 50, factor: 0 }, timeoutMs: 5 }), options);
    expect(bad.problems.map((problem) => [problem.nodeId, problem.field])).toEqual([
      ["write", "execution.retry.maxAttempts"],
      ["write", "execution.retry.factor"],
      ["write", "execution.timeoutMs"],
    ]);
    const shorter = await validateWorkflow(withWrite({ retry: { maxAttempts: 3, initialDelayMs: 5000, maxDelayMs: 1000 } }), options);
    expect(shorter.problems).toEqual([expect.objectContaining({ nodeId: "write", field: "execution.retry.maxDelayMs" })]);
    const everyNode = await validateWorkflow({ ...base, onError: "error-edge" }, options);
    expect(everyNode.problems).toEqual([expect.objectContaining({ nodeId: null, field: "onError" })]);
  });

  it("reserves the route id that names a router's error path", async () => {
    const result = await validateWorkflow(
      {
        ...base,
        nodes: [...base.nodes, { id: "pick", kind: "router", routes: [{ id: "error", value: "x", operator: "is_empty" }] }],
        edges: [...base.edges, { id: "e3", source: "in", target: "pick" }],
      },
      options,
    );
    expect(result.problems).toContainEqual(expect.objectContaining({ nodeId: "pick", field: "routes[0].id", message: expect.stringContaining("error path") }));
  });

  it("checks the error workflow: it exists, is not this workflow, and asks for no input a failure does not give", async () => {
    const workflows = {
      selfId: "self",
      find: async (id: string) =>
        id === "notifier"
          ? { name: "Notify", inputFields: [{ name: "error", type: "string" as const, required: true }] }
          : id === "picky"
            ? { name: "Picky", inputFields: [{ name: "channel", type: "string" as const, required: true }] }
            : null,
    };
    const check = async (errorWorkflowId: string) => (await validateWorkflow({ ...base, errorWorkflowId }, { ...options, workflows })).problems;
    expect(await check("notifier")).toEqual([]);
    expect(await check("self")).toEqual([expect.objectContaining({ nodeId: null, field: "errorWorkflowId", message: expect.stringContaining("its own error workflow") })]);
    expect(await check("gone")).toEqual([expect.objectContaining({ field: "errorWorkflowId", message: expect.stringContaining('no workflow with id "gone"') })]);
    expect(await check("picky")).toEqual([expect.objectContaining({ field: "errorWorkflowId", message: expect.stringContaining("“channel”") })]);
    // Without a way to look workflows up (a file the CLI runs), the check is left out.
    expect((await validateWorkflow({ ...base, errorWorkflowId: "gone" }, options)).problems).toEqual([]);
  });
});

describe("the README's error path", () => {
  const file = path.join(import.meta.dirname, "../../examples/error-edge.workflow.json");

  it("is the example file, word for word", () => {
    const readme = readFileSync(path.join(import.meta.dirname, "../../README.md"), "utf8");
    expect(readme).toContain(readFileSync(file, "utf8").trim());
  });

  it("is a sound workflow whose error edge leaves the fetch's error handle", async () => {
    const result = await validateWorkflow(JSON.parse(readFileSync(file, "utf8")), options);
    expect(result.problems).toEqual([]);
    expect(result.definition?.edges.find((edge) => edge.sourceHandle === "error")).toMatchObject({ source: "fetch", target: "down" });
  });
});
