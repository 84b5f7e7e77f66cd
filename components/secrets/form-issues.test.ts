import { describe, expect, it } from "vitest";
import { asSentence, describeIssuePath, issueField, issuesByField } from "./form-issues";

describe("issueField", () => {
  it("is the top-level key of a path", () => {
    expect(issueField("name")).toBe("name");
    expect(issueField("nodes[2].id")).toBe("nodes");
    expect(issueField("guardrails.maxSteps")).toBe("guardrails");
    expect(issueField("(arguments)")).toBe("");
  });
});

describe("issuesByField", () => {
  const fields = ["name", "value", "description", "tool"] as const;

  it("puts each issue on the field its path names, as a sentence", () => {
    const sorted = issuesByField(
      [
        { path: "name", message: "a secret name is upper-case letters, digits and _, not starting with a digit (e.g. DB_URL)", code: "custom" },
        { path: "value", message: "enter the secret's value", code: "custom" },
      ],
      fields,
    );
    expect(sorted.fields).toEqual({
      name: "A secret name is upper-case letters, digits and _, not starting with a digit (e.g. DB_URL)",
      value: "Enter the secret's value.",
    });
    expect(sorted.other).toEqual([]);
  });

  it("keeps the first message for a field", () => {
    const sorted = issuesByField(
      [
        { path: "name", message: "first", code: "custom" },
        { path: "name", message: "second", code: "custom" },
      ],
      fields,
    );
    expect(sorted.fields.name).toBe("First.");
  });

  it("keeps issues no field shows, so none is lost", () => {
    const unknown = { path: "nodes[0].id", message: "duplicate node id", code: "custom" };
    const whole = { path: "(arguments)", message: "expected object, received array", code: "custom" };
    expect(issuesByField([unknown, whole], fields)).toEqual({ fields: {}, other: [unknown, whole] });
  });
});

describe("asSentence", () => {
  it("capitalises and ends with a full stop once", () => {
    expect(asSentence("enter a name")).toBe("Enter a name.");
    expect(asSentence("Already fine.")).toBe("Already fine.");
    expect(asSentence("")).toBe("");
  });
});

describe("describeIssuePath", () => {
  it("names the file as a whole when there is no path", () => {
    expect(describeIssuePath("(arguments)")).toBe("(the file as a whole)");
    expect(describeIssuePath("nodes[1].kind")).toBe("nodes[1].kind");
  });
});
