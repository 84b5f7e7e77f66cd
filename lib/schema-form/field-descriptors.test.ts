import { describe, expect, it } from "vitest";
import { zodFromJsonSchema } from "./zod-schema";
import { cleanValues, describeSchema, friendlyMessage, humanise, nextFormValue, problemsUnder, stableStringify, unwrapNullable, withoutProperties } from "./field-descriptors";

const SCHEMA = {
  type: "object",
  properties: {
    root: { type: "string", minLength: 1, title: "Folder", format: "directory", description: "The folder this step works in." },
    timeoutSeconds: { default: 120, type: "integer", minimum: 1, maximum: 3600 },
    password: { type: "string", format: "password" },
    content: { type: "string" },
    verbose: { type: "boolean", default: false },
    provider: { type: "string", enum: ["brave", "searxng"], default: "brave" },
    tags: { type: "array", items: { type: "string", minLength: 1 } },
    environment: { type: "object", propertyNames: { type: "string" }, additionalProperties: { type: "string" } },
    connection: {
      type: "object",
      title: "Connection",
      properties: { host: { type: "string" }, port: { type: "integer", maximum: 9007199254740991 } },
      required: ["host"],
    },
    edits: { type: "array", items: { type: "object", properties: { oldText: { type: "string" }, replaceAll: { type: "boolean" } }, required: ["oldText"] } },
    note: { anyOf: [{ type: "string" }, { type: "null" }], description: "May be null." },
    json: { description: "Any JSON." },
    dsn: { type: "string" },
  },
  required: ["root"],
};

describe("describeSchema", () => {
  const fields = describeSchema(SCHEMA, "", { secretFields: ["dsn"] });
  const byKey = Object.fromEntries(fields.map((field) => [field.key, field]));

  it("chooses a widget per field", () => {
    expect(Object.fromEntries(fields.map((field) => [field.key, field.widget]))).toEqual({
      root: "directory",
      timeoutSeconds: "number",
      password: "password",
      content: "textarea",
      verbose: "checkbox",
      provider: "select",
      tags: "list",
      environment: "record",
      connection: "object",
      edits: "object-list",
      note: "text",
      json: "json",
      dsn: "secret",
    });
  });

  it("labels with the title, else the humanised key, and keeps help, required and defaults", () => {
    expect(byKey.root).toMatchObject({ label: "Folder", required: true, description: "The folder this step works in.", minLength: 1 });
    expect(byKey.timeoutSeconds).toMatchObject({ label: "Timeout seconds", required: false, defaultValue: 120, integer: true, minimum: 1, maximum: 3600 });
    expect(byKey.provider).toMatchObject({ options: ["brave", "searxng"], defaultValue: "brave" });
    expect(byKey.dsn!.label).toBe("DSN");
  });

  it("describes nested objects, list items and record values", () => {
    expect(byKey.connection!.fields.map((field) => [field.path, field.required, field.widget])).toEqual([
      ["connection.host", true, "text"],
      ["connection.port", false, "number"],
    ]);
    // ±2^53 says nothing to a person.
    expect(byKey.connection!.fields[1]!.maximum).toBeUndefined();
    expect(byKey.tags!.item).toMatchObject({ widget: "text", minLength: 1 });
    expect(byKey.environment!.item).toMatchObject({ widget: "text" });
    expect(byKey.edits!.fields.map((field) => field.key)).toEqual(["oldText", "replaceAll"]);
  });

  it("unwraps nullable fields", () => {
    expect(byKey.note).toMatchObject({ nullable: true, description: "May be null." });
    expect(unwrapNullable({ type: ["integer", "null"] })).toEqual({ schema: { type: "integer" }, nullable: true });
    expect(unwrapNullable({ type: "string" }).nullable).toBe(false);
  });

  it("returns nothing for a schema without properties", () => {
    expect(describeSchema(null)).toEqual([]);
    expect(describeSchema({ type: "object", properties: {}, required: [] })).toEqual([]);
  });
});

describe("humanise", () => {
  it("spells keys out", () => {
    expect(humanise("timeoutSeconds")).toBe("Timeout seconds");
    expect(humanise("api_key")).toBe("API key");
    expect(humanise("waitForSelector")).toBe("Wait for selector");
    expect(humanise("URLPath")).toBe("URL path");
  });
});

describe("cleanValues", () => {
  const fields = describeSchema(SCHEMA);
  it("drops blank optional fields and empty numbers, keeps required blanks for their error", () => {
    expect(cleanValues(fields, { root: "", content: "", timeoutSeconds: Number.NaN, verbose: false, extra: 1 })).toEqual({ root: "", verbose: false, extra: 1 });
    expect(cleanValues(fields, { timeoutSeconds: "30", note: null })).toEqual({ timeoutSeconds: 30, note: null });
    // An optional object left blank is no value; a required field inside it keeps its blank for the error.
    expect(cleanValues(fields, { connection: { port: undefined } })).toEqual({});
    expect(cleanValues(fields, { connection: { host: "", port: undefined } })).toEqual({ connection: { host: "" } });
  });
});

describe("problemsUnder", () => {
  it("keys problems by their path below the prefix", () => {
    const problems = [
      { field: "settings.root", message: "choose a folder" },
      { field: "arguments.path", message: "outside" },
      { field: null, message: "general" },
      { field: "settings.root", message: "twice" },
    ];
    expect(problemsUnder("settings", problems)).toEqual({ root: "choose a folder twice" });
    expect(problemsUnder("arguments", problems)).toEqual({ path: "outside" });
  });
});

describe("helpers", () => {
  it("compares values whatever their key order", () => {
    expect(stableStringify({ b: 1, a: { d: 2, c: [3, { f: 1, e: 2 }] } })).toBe(stableStringify({ a: { c: [3, { e: 2, f: 1 }], d: 2 }, b: 1 }));
  });
  it("leaves properties out of a schema", () => {
    expect(withoutProperties(SCHEMA, ["root", "dsn"])).toMatchObject({ required: [] });
    expect(Object.keys(withoutProperties(SCHEMA, ["root"]).properties as object)).not.toContain("root");
  });
});

describe("friendlyMessage", () => {
  it("turns zod's wording into plain words", async () => {
    const { z } = await import("zod");
    const schema = z.fromJSONSchema({
      type: "object",
      properties: {
        count: { type: "integer", minimum: 1, maximum: 10 },
        name: { type: "string", minLength: 1 },
        items: { type: "array", minItems: 1, items: { type: "string" } },
      },
      required: ["name"],
    });
    const messages = (value: unknown) => schema.safeParse(value).error!.issues.map((issue) => friendlyMessage(issue.message));
    expect(messages({ count: 0, name: "", items: [] })).toEqual(["Enter 1 or more.", "This field is required.", "Add at least 1 item."]);
    expect(messages({ count: 11, name: "x" })).toEqual(["Enter 10 or less."]);
    expect(messages({ count: 1.5, name: "x" })).toEqual(["Enter a whole number."]);
    expect(messages({})).toEqual(["This field is required."]);
    expect(friendlyMessage("something else")).toBe("Something else");
  });
});

describe("nextFormValue", () => {
  it("passes on a valid edit of one field even while another required field is empty", () => {
    const schema = { type: "object", properties: { path: { type: "string", minLength: 1 }, limit: { type: "integer", minimum: 1 }, note: { type: "string" } }, required: ["path"] };
    const zod = zodFromJsonSchema(schema);
    const fields = describeSchema(schema);
    expect(nextFormValue({}, { path: "", limit: 5 }, "limit", fields, [], zod)).toEqual({ limit: 5 });
    // The edited field is invalid: nothing is passed on.
    expect(nextFormValue({ limit: 5 }, { path: "", limit: 0 }, "limit", fields, [], zod)).toBeNull();
    // An invalid value elsewhere stays out.
    expect(nextFormValue({ limit: 5 }, { path: "a.txt", limit: 0 }, "path", fields, [], zod)).toEqual({ limit: 5, path: "a.txt" });
    // Clearing an optional field removes it; left-out fields are not touched.
    expect(nextFormValue({ limit: 5, note: "x", ref: "{{ inputs.a }}" }, { note: "", limit: 5 }, "note", fields, ["ref"], zod)).toEqual({ limit: 5, ref: "{{ inputs.a }}" });
  });
});
