import { Output } from "ai";
import { describe, expect, it } from "vitest";
import { catalogEntry } from "@/lib/server/tool-catalog";
import { allTools } from "@/lib/tools";
import { draftSchema } from "./draft-schema";

const vocabulary = { tools: allTools().map(catalogEntry), secretNames: ["SHOP_DB", "SEARCH_KEY"] };
const schema = draftSchema(vocabulary);

/** Every morning, yesterday's orders from the shop database, a summary written to reports/. */
function goodDraft() {
  return {
    name: "Morning orders summary",
    description: "Reads yesterday's orders and writes a summary.",
    mode: "default",
    plan: [
      { step: "Every morning at 7", reason: "The goal names a time.", nodeIds: ["morning"] },
      { step: "Read yesterday's orders", reason: "db.query: the sql tool's query.", nodeIds: ["orders"] },
      { step: "Write the summary to reports/", reason: "file.write: write_file.", nodeIds: ["summary"] },
    ],
    nodes: [
      { id: "morning", kind: "schedule", form: "cron", cron: "0 7 * * *" },
      { id: "orders", kind: "tool", tool: "sql", operation: "query", arguments: { dsn: "${SHOP_DB}", sql: "SELECT * FROM orders WHERE day = date('now', '-1 day')", limit: 1000 } },
      { id: "summary", kind: "tool", tool: "write_file", operation: null, arguments: { path: "reports/orders.md", content: "{{ nodes.orders.output }}" } },
      { id: "done", kind: "output", value: "{{ nodes.summary.output }}" },
    ],
    edges: [
      { from: "morning", to: "orders" },
      { from: "orders", to: "summary" },
      { from: "summary", to: "done" },
    ],
  };
}

/** The paths of the issues `value` is refused with, each with its message. */
function refusals(value: unknown): string[] {
  const parsed = schema.safeParse(value);
  expect(parsed.success).toBe(false);
  return parsed.error!.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
}

describe("the Architect's answer schema, built from the catalog", () => {
  it("takes a draft that uses only what the studio has", () => {
    const parsed = schema.parse(goodDraft());
    expect(parsed.nodes.map((node) => node.kind)).toEqual(["schedule", "tool", "tool", "output"]);
    expect(parsed.declined).toEqual([]);
  });

  it("cannot name a tool outside the catalog, nor another tool's operation", () => {
    const made = goodDraft();
    made.nodes[1] = { ...made.nodes[1]!, tool: "send_email" } as never;
    expect(refusals(made).join("\n")).toMatch(/^nodes\.1\.tool: .*'sql'/m);

    const borrowed = goodDraft();
    borrowed.nodes[1] = { ...borrowed.nodes[1]!, operation: "run" } as never;
    expect(refusals(borrowed).join("\n")).toMatch(/^nodes\.1\.operation: .*'query'/m);
  });

  it("cannot bind an argument outside the operation's input, nor choose a tool's settings", () => {
    const extra = goodDraft();
    (extra.nodes[2] as { arguments: Record<string, unknown> }).arguments.mode = "0777";
    expect(refusals(extra)).toContainEqual(expect.stringMatching(/^nodes\.2\.arguments: .*mode/));

    const settings = goodDraft();
    (settings.nodes[2] as Record<string, unknown>).settings = { root: "/" };
    expect(refusals(settings)).toContainEqual(expect.stringMatching(/^nodes\.2: .*settings/));
  });

  it("cannot write a credential: a secret input names a stored secret, and a key-shaped value anywhere is refused where it is", () => {
    const literal = goodDraft();
    (literal.nodes[1] as { arguments: Record<string, unknown> }).arguments.dsn = "postgresql://shop:hunter2@db/shop";
    expect(refusals(literal)).toContainEqual(expect.stringMatching(/^nodes\.1\.arguments\.dsn: /));

    const unknownSecret = goodDraft();
    (unknownSecret.nodes[1] as { arguments: Record<string, unknown> }).arguments.dsn = "${NOT_STORED}";
    expect(refusals(unknownSecret)).toContainEqual(expect.stringMatching(/^nodes\.1\.arguments\.dsn: .*\$\{SHOP_DB\}/));

    const pasted = goodDraft();
    (pasted.nodes[2] as { arguments: Record<string, unknown> }).arguments.content = "key: sk-proj-abcdefghijklmnopqrstuvwxyz123456";
    expect(refusals(pasted)).toContainEqual(expect.stringMatching(/^nodes\.2\.arguments\.content: looks like an API key .*Settings → Secrets/));
  });

  it("cannot choose a privileged mode", () => {
    for (const mode of ["bypass", "accept_edits"]) {
      expect(refusals({ ...goodDraft(), mode })).toContainEqual(expect.stringMatching(/^mode: .*"default"/));
    }
  });

  it("is a JSON schema a provider can constrain generation with", async () => {
    const format = await Output.object({ schema }).responseFormat;
    expect(format?.type).toBe("json");
    const document = JSON.stringify(format && "schema" in format ? format.schema : null);
    expect(document).toContain('"write_file"');
    expect(document).toContain('"query"');
    expect(document).not.toContain("bypass");
    // Secret inputs offer the stored names only.
    expect(document).toContain('"${SHOP_DB}"');
  });
});
