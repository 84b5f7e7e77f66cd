import Database from "better-sqlite3";
import { createWriteStream } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AutoApproveIOHandler } from "../../io-handler";
import { modelToolSchema } from "../../schemas";
import { createToolContext, type ToolContext } from "../../tool-context";
import type { ToolResult } from "../../tool-result";
import { DataTool } from "./data-tool";
import { dataTools } from "./index";

interface TableData {
  columns: { name: string; type: string; nullable: boolean; declaredType?: string }[];
  rows: unknown[][];
  rowCount: number;
  notes?: string[];
  format?: string;
}

let root: string;
let ctx: ToolContext;
const tool = new DataTool();

async function inspect(args: Record<string, unknown>): Promise<ToolResult> {
  return tool.run(args, ctx);
}

function dataOf(result: ToolResult): TableData {
  expect(result.isError, result.content).toBe(false);
  return result.data as TableData;
}

function columnTypes(data: TableData): Record<string, string> {
  return Object.fromEntries(data.columns.map((column) => [column.name, `${column.type}${column.nullable ? "?" : ""}`]));
}

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "data-tool-"));
  ctx = createToolContext({ io: new AutoApproveIOHandler(), settings: { root } });
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("data tool: declaration", () => {
  it("declares itself as the core, read-only data.inspect tool confined under root", () => {
    expect(tool.name).toBe("data");
    expect(tool.title).toBe("Data Files");
    expect(tool.capabilities).toEqual(["data.inspect"]);
    expect(tool.isReadOnly()).toBe(true);
    expect(tool.isDestructive()).toBe(false);
    expect(tool.origin).toBe("core");
    expect(tool.verified).toBe(true);
    expect(tool.domain).toBe("data");
    expect(tool.rootSetting).toBe("root");
    expect(tool.pathInputs).toEqual(["path"]);
    expect(tool.requiredSettings()).toEqual(["root"]);
    const schema = modelToolSchema(tool).inputSchema as { properties: Record<string, unknown>; required: string[] };
    expect(Object.keys(schema.properties).sort()).toEqual(["format", "path", "rows", "table"]);
    expect(schema.required).toEqual(["path"]);
    expect(dataTools()[0]).not.toBe(dataTools()[0]);
  });
});

describe("data tool: CSV and TSV", () => {
  it("parses quoting, embedded newlines and CRLF, and infers column types", async () => {
    const csv = [
      "id,name,price,in_stock,added,zip,notes",
      '1,"Widget, large",9.5,true,2024-01-02,01234,"said ""wow"""',
      '2,Gadget,,false,2024-02-03,98765,"two\r\nlines"',
      "3,Doohickey,12,TRUE,2024-03-04T10:00:00Z,00501,",
    ].join("\r\n");
    await writeFile(path.join(root, "products.csv"), `\uFEFF${csv}\r\n`);
    const result = await inspect({ path: "products.csv" });
    const data = dataOf(result);
    expect(data.rowCount).toBe(3);
    expect(columnTypes(data)).toEqual({
      id: "integer",
      name: "string",
      price: "number?",
      in_stock: "boolean",
      added: "date",
      zip: "string",
      notes: "string?",
    });
    expect(data.rows[0]).toEqual(["1", "Widget, large", "9.5", "true", "2024-01-02", "01234", 'said "wow"']);
    expect(data.rows[1]![6]).toBe("two\r\nlines");
    expect(result.content).toContain("products.csv — CSV, 3 rows, 7 columns");
    expect(result.content).toContain("price     number, nullable");
    expect(result.content).toContain("| 1   | Widget, large |");
    expect(result.content).toContain("two⏎lines");
  });

  it("shows only the rows asked for but counts them all", async () => {
    const lines = ["n,square"];
    for (let index = 1; index <= 50; index += 1) lines.push(`${index},${index * index}`);
    await writeFile(path.join(root, "squares.csv"), lines.join("\n"));
    const data = dataOf(await inspect({ path: "squares.csv", rows: 2 }));
    expect(data.rowCount).toBe(50);
    expect(data.rows).toEqual([
      ["1", "1"],
      ["2", "4"],
    ]);
    const defaults = dataOf(await inspect({ path: "squares.csv" }));
    expect(defaults.rows).toHaveLength(5);
    const none = await inspect({ path: "squares.csv", rows: 0 });
    expect(dataOf(none).rows).toEqual([]);
    expect(none.content).not.toContain("|");
  });

  it("refuses more than 100 rows", async () => {
    const result = await inspect({ path: "squares.csv", rows: 101 });
    expect(result.isError).toBe(true);
    expect(result.content).toContain("`rows`");
  });

  it("reads TSV by extension and semicolon CSV by sniffing", async () => {
    await writeFile(path.join(root, "people.tsv"), "name\tage\nAda, Countess\t36\nAlan\t41\n");
    const tsv = dataOf(await inspect({ path: "people.tsv" }));
    expect(columnTypes(tsv)).toEqual({ name: "string", age: "integer" });
    expect(tsv.rows[0]).toEqual(["Ada, Countess", "36"]);

    await writeFile(path.join(root, "european.csv"), "city;population\nParis;2102650\nLyon;522250\n");
    const semicolons = dataOf(await inspect({ path: "european.csv" }));
    expect(semicolons.columns.map((column) => column.name)).toEqual(["city", "population"]);
    expect(semicolons.rowCount).toBe(2);
  });

  it("takes a format override for an unhelpful extension", async () => {
    await writeFile(path.join(root, "export.txt"), "a,b\n1,2\n");
    const refused = await inspect({ path: "export.txt" });
    expect(refused.isError).toBe(true);
    expect(refused.content).toContain("Pass `format`");
    const data = dataOf(await inspect({ path: "export.txt", format: "csv" }));
    expect(data.rowCount).toBe(1);
  });

  it("notes ragged rows and names duplicate or empty headers", async () => {
    await writeFile(path.join(root, "ragged.csv"), "a,a,\n1,2,3\n4,5\n6,7,8,9\n");
    const data = dataOf(await inspect({ path: "ragged.csv" }));
    expect(data.columns.map((column) => column.name)).toEqual(["a", "a_2", "column_3"]);
    expect(data.rows[1]).toEqual(["4", "5", null]);
    expect(data.notes?.[0]).toMatch(/2 rows do not have 3 fields .*line 3 has 2, line 4 has 4/);
  });

  it("reports an unclosed quote with its line", async () => {
    await writeFile(path.join(root, "broken.csv"), 'a,b\n1,2\n3,"oops\n4,5\n');
    const result = await inspect({ path: "broken.csv" });
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/broken\.csv is not valid CSV: .*line 3/);
  });

  it("refuses an empty or binary CSV", async () => {
    await writeFile(path.join(root, "empty.csv"), "");
    expect((await inspect({ path: "empty.csv" })).content).toContain("empty");
    await writeFile(path.join(root, "binary.csv"), Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00]));
    const binary = await inspect({ path: "binary.csv" });
    expect(binary.isError).toBe(true);
    expect(binary.content).toContain("binary");
  });

  it("streams a large file, counting every row and keeping only the first ones", async () => {
    const file = path.join(root, "large.csv");
    const stream = createWriteStream(file);
    stream.write("id,value,label\n");
    const total = 300_000;
    for (let index = 1; index <= total; index += 1) stream.write(`${index},${index / 4},"row ${index}, quoted"\n`);
    await new Promise<void>((resolve, reject) => stream.end((error?: Error | null) => (error ? reject(error) : resolve())));
    const result = await inspect({ path: "large.csv", rows: 100 });
    const data = dataOf(result);
    expect(data.rowCount).toBe(total);
    expect(data.rows).toHaveLength(100);
    expect(columnTypes(data)).toEqual({ id: "integer", value: "number", label: "string" });
    expect(result.content).toContain("300,000 rows");
    expect(result.content.length).toBeLessThan(30_000);
  });
});

describe("data tool: JSON and JSON Lines", () => {
  it("reads an array of objects, with the union of keys as columns", async () => {
    await writeFile(
      path.join(root, "orders.json"),
      JSON.stringify([
        { id: 1, total: 10, paid: true, meta: { via: "web" } },
        { id: 2, total: 12.5, paid: false, coupon: "SPRING" },
        { id: 3, total: null, paid: true, tags: ["a"] },
      ]),
    );
    const result = await inspect({ path: "orders.json" });
    const data = dataOf(result);
    expect(data.rowCount).toBe(3);
    expect(columnTypes(data)).toEqual({ id: "integer", total: "number?", paid: "boolean", meta: "object?", coupon: "string?", tags: "array?" });
    expect(data.rows[1]).toEqual([2, 12.5, false, null, "SPRING", null]);
    expect(result.content).toContain('{"via":"web"}');
  });

  it("finds the rows under a single key, and shows a lone object as one row", async () => {
    await writeFile(path.join(root, "wrapped.json"), JSON.stringify({ count: 2, results: [{ a: 1 }, { a: 2 }], page: { next: null } }));
    const wrapped = dataOf(await inspect({ path: "wrapped.json" }));
    expect(wrapped.rowCount).toBe(2);
    expect(wrapped.notes?.[0]).toContain('"results"');

    await writeFile(path.join(root, "config.json"), JSON.stringify({ name: "x", retries: 3 }));
    const single = dataOf(await inspect({ path: "config.json" }));
    expect(single.columns.map((column) => column.name)).toEqual(["name", "retries"]);
    expect(single.rows).toEqual([["x", 3]]);

    await writeFile(path.join(root, "numbers.json"), "[1, 2, 3.5]");
    const numbers = dataOf(await inspect({ path: "numbers.json" }));
    expect(columnTypes(numbers)).toEqual({ value: "number" });
  });

  it("reports malformed JSON with its line and column", async () => {
    await writeFile(path.join(root, "bad.json"), '[\n  {"a": 1},\n  {"a": 2,}\n]\n');
    const result = await inspect({ path: "bad.json" });
    expect(result.isError).toBe(true);
    expect(result.content).toContain("bad.json: The file is not valid JSON at line 3, column 11: trailing comma before '}'.");
  });

  it("reads JSON Lines as a stream and names a bad line", async () => {
    await writeFile(path.join(root, "events.jsonl"), '{"t": "2024-01-01", "n": 1}\r\n\n{"t": "2024-01-02", "n": 2, "extra": "x"}\n');
    const data = dataOf(await inspect({ path: "events.jsonl" }));
    expect(data.rowCount).toBe(2);
    expect(columnTypes(data)).toEqual({ t: "date", n: "integer", extra: "string?" });

    await writeFile(path.join(root, "broken.ndjson"), '{"a": 1}\n{"a": 2\n{"a": 3}\n');
    const broken = await inspect({ path: "broken.ndjson" });
    expect(broken.isError).toBe(true);
    expect(broken.content).toContain("line 2, column 8");
  });

  it("suggests jsonl for a .json file holding one object per line", async () => {
    await writeFile(path.join(root, "lines.json"), '{"a": 1}\n{"a": 2}\n');
    const result = await inspect({ path: "lines.json" });
    expect(result.isError).toBe(true);
    expect(result.content).toContain('pass format "jsonl"');
    expect(dataOf(await inspect({ path: "lines.json", format: "jsonl" })).rowCount).toBe(2);
  });
});

describe("data tool: SQLite", () => {
  const file = () => path.join(root, "shop.db");

  beforeAll(() => {
    const database = new Database(file());
    database.exec(`
      CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT, joined DATE);
      CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers(id), total REAL, note);
      CREATE VIEW big_orders AS SELECT * FROM orders WHERE total > 100;
    `);
    const insertCustomer = database.prepare("INSERT INTO customers (name, email, joined) VALUES (?, ?, ?)");
    for (let index = 1; index <= 12; index += 1) insertCustomer.run(`Customer ${index}`, index % 3 === 0 ? null : `c${index}@example.com`, "2024-01-01");
    const insertOrder = database.prepare("INSERT INTO orders (customer_id, total, note) VALUES (?, ?, ?)");
    insertOrder.run(1, 150.5, "rush");
    insertOrder.run(2, 20, Buffer.from([1, 2, 3]));
    database.close();
  });

  it("describes every table and view with columns, types, counts and first rows", async () => {
    const result = await inspect({ path: "shop.db", rows: 3 });
    expect(result.isError, result.content).toBe(false);
    const data = result.data as { format: string; tables: (TableData & { name: string; kind: string })[] };
    expect(data.format).toBe("sqlite");
    expect(data.tables.map((table) => [table.name, table.kind, table.rowCount])).toEqual([
      ["big_orders", "view", 1],
      ["customers", "table", 12],
      ["orders", "table", 2],
    ]);
    const customers = data.tables[1]!;
    expect(columnTypes(customers)).toEqual({ id: "integer", name: "string", email: "string?", joined: "date?" });
    expect(customers.rows).toHaveLength(3);
    expect(customers.rows[0]).toEqual([1, "Customer 1", "c1@example.com", "2024-01-01"]);
    expect(data.tables[2]!.rows[1]![3]).toBe("<3 bytes>");
    expect(result.content).toContain("## Table customers — 12 rows");
    expect(result.content).toContain("SQLite database, 3 tables");
  });

  it("narrows to one table (case-insensitively) and puts it at the top level", async () => {
    const data = dataOf(await inspect({ path: "shop.db", table: "CUSTOMERS", rows: 1 })) as TableData & { table: string };
    expect(data.table).toBe("customers");
    expect(data.rowCount).toBe(12);
    expect(data.rows).toHaveLength(1);
  });

  it("lists the tables when the one asked for does not exist", async () => {
    const result = await inspect({ path: "shop.db", table: "invoices" });
    expect(result.isError).toBe(true);
    expect(result.content).toContain('no table or view named "invoices"');
    expect(result.content).toContain("big_orders, customers, orders");
  });

  it("opens the file read-only and leaves it unchanged", async () => {
    const before = await readFile(file());
    await inspect({ path: "shop.db" });
    expect((await readFile(file())).equals(before)).toBe(true);
  });

  it("recognises SQLite by its header whatever the extension, and refuses a fake .db", async () => {
    await writeFile(path.join(root, "copy.bin"), await readFile(file()));
    expect((await inspect({ path: "copy.bin" })).isError).toBe(false);
    await writeFile(path.join(root, "fake.db"), "not a database at all, just some text that is long enough to pass the header");
    const fake = await inspect({ path: "fake.db" });
    expect(fake.isError).toBe(true);
    expect(fake.content).toContain("could not be opened as a SQLite database");
  });

  it("still describes the other tables when a view cannot be read", async () => {
    const broken = path.join(root, "broken-view.db");
    const database = new Database(broken);
    database.exec("CREATE TABLE gone (a); CREATE TABLE kept (b); INSERT INTO kept VALUES (1); CREATE VIEW dangling AS SELECT a FROM gone; DROP TABLE gone;");
    database.close();
    const result = await inspect({ path: "broken-view.db" });
    expect(result.isError, result.content).toBe(false);
    expect(result.content).toContain("Note: This view could not be read: no such table: main.gone.");
    expect(result.content).toContain("## Table kept — 1 row");
  });

  it("refuses `table` for a file without tables", async () => {
    const result = await inspect({ path: "squares.csv", table: "x" });
    expect(result.isError).toBe(true);
    expect(result.content).toContain("`table`: only SQLite files have tables");
  });
});

describe("data tool: bad paths and formats", () => {
  it("says when the file does not exist, or is a folder", async () => {
    const missing = await inspect({ path: "nope/missing.csv" });
    expect(missing.isError).toBe(true);
    expect(missing.content).toBe("`path`: no such file: nope/missing.csv. Check the name, or list the folder to see what is there.");
    await mkdir(path.join(root, "folder"), { recursive: true });
    expect((await inspect({ path: "folder" })).content).toContain("is a folder");
  });

  it("explains unsupported formats", async () => {
    await writeFile(path.join(root, "book.xlsx"), "PK");
    const result = await inspect({ path: "book.xlsx" });
    expect(result.isError).toBe(true);
    expect(result.content).toContain("export the sheet to CSV");
    const badFormat = await inspect({ path: "book.xlsx", format: "excel" });
    expect(badFormat.isError).toBe(true);
    expect(badFormat.content).toContain("`format`");
  });

  it("refuses paths outside the step's folder", async () => {
    const result = await inspect({ path: "../../etc/passwd" });
    expect(result.isError).toBe(true);
    expect(result.content).toContain("outside the step's folder");
  });

  it("needs the root setting", async () => {
    const result = await tool.run({ path: "products.csv" }, createToolContext({ io: new AutoApproveIOHandler() }));
    expect(result.isError).toBe(true);
    expect(result.content).toContain("settings");
  });
});
