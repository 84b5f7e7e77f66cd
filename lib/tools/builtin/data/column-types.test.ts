import { describe, expect, it } from "vitest";
import { ColumnTypeAccumulator, kindOfText, typeFromDeclared } from "./column-types";

function inferText(values: (string | undefined)[]) {
  const accumulator = new ColumnTypeAccumulator("text");
  for (const value of values) accumulator.addText(value);
  return accumulator.result();
}

describe("column type inference", () => {
  it("classifies text fields", () => {
    expect(kindOfText("42")).toBe("integer");
    expect(kindOfText("-3.5e2")).toBe("number");
    expect(kindOfText("007")).toBe("string");
    expect(kindOfText("TRUE")).toBe("boolean");
    expect(kindOfText("2024-02-29")).toBe("date");
    expect(kindOfText("2024-02-29T10:00:00Z")).toBe("date");
    expect(kindOfText("2024-13-45")).toBe("string");
    expect(kindOfText("")).toBeNull();
  });

  it("widens integers to numbers and marks empty values as nullable", () => {
    expect(inferText(["1", "2"])).toEqual({ type: "integer", nullable: false });
    expect(inferText(["1", "2.5", ""])).toEqual({ type: "number", nullable: true });
    expect(inferText(["1", "abc"])).toEqual({ type: "string", nullable: false });
    expect(inferText(["", undefined])).toEqual({ type: "null", nullable: true });
  });

  it("calls disagreeing typed values mixed", () => {
    const accumulator = new ColumnTypeAccumulator("typed");
    accumulator.addValue(1);
    accumulator.addValue({ a: 1 });
    expect(accumulator.result().type).toBe("mixed");
  });

  it("maps declared database types", () => {
    expect(typeFromDeclared("BIGINT")).toBe("integer");
    expect(typeFromDeclared("numeric(10,2)")).toBe("number");
    expect(typeFromDeclared("timestamp with time zone")).toBe("date");
    expect(typeFromDeclared("VARCHAR(20)")).toBe("string");
    expect(typeFromDeclared("interval")).toBe("string");
    expect(typeFromDeclared("integer[]")).toBe("array");
    expect(typeFromDeclared("")).toBeNull();
  });
});
