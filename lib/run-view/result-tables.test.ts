import { describe, expect, it } from "vitest";
import { cellText, MAX_TABLE_ROWS, resultTables } from "./result-tables";

describe("resultTables", () => {
  it("reads the data and sql tools' columns and rows", () => {
    const tables = resultTables({ columns: [{ name: "city", type: "text" }, { name: "people" }], rows: [["Oslo", 700000], ["Bergen", 290000]], rowCount: 12 });
    expect(tables).toEqual([{ name: null, columns: ["city", "people"], rows: [["Oslo", 700000], ["Bergen", 290000]], rowCount: 12 }]);
    // The sql tool's rows come keyed by column, a repeated name numbered after its first.
    const keyed = resultTables({ columns: [{ name: "id" }, { name: "id" }], rows: [{ id: 1, id_2: 7 }], rowValues: [[1, 7]], rowCount: 1 });
    expect(keyed[0]).toMatchObject({ columns: ["id", "id"], rows: [[1, 7]] });
  });

  it("reads every table of a SQLite file", () => {
    const tables = resultTables({
      format: "sqlite",
      tables: [
        { name: "a", columns: [{ name: "x" }], rows: [[1]], rowCount: 1 },
        { name: "b", columns: [{ name: "y" }], rows: [], rowCount: 0 },
      ],
    });
    expect(tables.map((table) => table.name)).toEqual(["a", "b"]);
  });

  it("turns arrays of objects into a table with the union of their keys", () => {
    const tables = resultTables([{ a: 1 }, { a: 2, b: "x" }]);
    expect(tables).toEqual([{ name: null, columns: ["a", "b"], rows: [[1, undefined], [2, "x"]], rowCount: 2 }]);
    expect(resultTables({ items: [{ id: 1 }] })[0]).toMatchObject({ name: "items", columns: ["id"] });
  });

  it("finds nothing in text, scalars or lists of scalars", () => {
    expect(resultTables("hello")).toEqual([]);
    expect(resultTables(null)).toEqual([]);
    expect(resultTables([1, 2])).toEqual([]);
    expect(resultTables({ a: 1 })).toEqual([]);
  });

  it("caps the rows it renders", () => {
    const rows = Array.from({ length: MAX_TABLE_ROWS + 5 }, (_, index) => [index]);
    const [table] = resultTables({ columns: ["n"], rows });
    expect(table!.rows).toHaveLength(MAX_TABLE_ROWS);
    expect(table!.rowCount).toBe(MAX_TABLE_ROWS + 5);
  });

  it("shows cells as text", () => {
    expect(cellText(null)).toBe("");
    expect(cellText(3)).toBe("3");
    expect(cellText({ a: 1 })).toBe('{"a":1}');
  });
});
