import { describe, expect, it } from "vitest";
import { StepOutputSchema, type StepOutput } from "@/lib/contracts/run";
import { formatBytes } from "@/lib/format/bytes";
import { boundStepOutput, MAX_STORED_RESULT_BYTES, serializedBytes } from "./bound-output";

/** What the SQL tool gives for `SELECT hex(zeroblob(1000)) AS c1, … c5` over `count` rows: each row twice (rows and rowValues). */
function wideRows(count: number): StepOutput {
  const columns = ["c1", "c2", "c3", "c4", "c5"];
  const rowValues = Array.from({ length: count }, (_, row) => columns.map((_, column) => `${row}:${column}:`.padEnd(2_000, "0")));
  const rows = rowValues.map((values) => Object.fromEntries(columns.map((name, column) => [name, values[column]])));
  return {
    content: `First ${count} rows …`,
    data: { columns: columns.map((name) => ({ name, type: "" })), rows, rowValues, rowCount: count, truncated: false, limit: count },
  };
}

/** Its JSON's bytes, measured the plain way: what the database stores. */
const storedSize = (value: unknown) => Buffer.byteLength(JSON.stringify(value), "utf8");

describe("boundStepOutput", () => {
  it("returns a result within the cap as it is, the same object", () => {
    const output: StepOutput = { content: "3 rows", data: { rows: [{ who: "Ada" }, { who: "Grace" }, { who: "Linus" }] } };
    expect(boundStepOutput(output)).toBe(output);
  });

  it("keeps a result of exactly the cap whole and cuts one a byte over", () => {
    const exactly: StepOutput = { content: "x".repeat(MAX_STORED_RESULT_BYTES - storedSize({ content: "" })) };
    expect(storedSize(exactly)).toBe(MAX_STORED_RESULT_BYTES);
    expect(boundStepOutput(exactly)).toBe(exactly);

    const over: StepOutput = { content: `${exactly.content}y` };
    const stored = boundStepOutput(over);
    expect(stored.truncated?.totalBytes).toBe(MAX_STORED_RESULT_BYTES + 1);
    expect(storedSize(stored)).toBeLessThanOrEqual(MAX_STORED_RESULT_BYTES);
  });

  it("measures as JSON.stringify does: escapes, other scripts, emoji, undefined, NaN and dates", () => {
    const output = {
      content: 'quote " backslash \\ newline \n tab \t ünïcödé 漢字 🎉 \u0001 \u007f lone \ud800',
      data: { kept: [1, undefined, NaN, null, true, -0.5e-7], left: undefined, when: new Date(0), nested: { "key with space": ["é"], plain: "ascii only", del: "\u007f" } },
    } as StepOutput;
    const exact = storedSize(output);
    expect(serializedBytes(output)).toBe(exact);
    // Kept whole at exactly its size, cut a byte below: the walk that measures without building the text counts as JSON.stringify does.
    expect(boundStepOutput(output, exact)).toBe(output);
    expect(boundStepOutput(output, exact - 1).truncated?.totalBytes).toBe(exact);
  });

  it("keeps the leading rows that fit and tells the true counts and sizes", () => {
    const output = wideRows(1_000);
    const totalBytes = storedSize(output);
    const stored = boundStepOutput(output);

    expect(storedSize(stored)).toBeLessThanOrEqual(MAX_STORED_RESULT_BYTES);
    const data = stored.data as { rows: unknown[]; rowValues: unknown[]; rowCount: number; columns: unknown[] };
    const original = output.data as typeof data;
    // The leading rows, each whole; the small fields untouched.
    expect(data.rows.length).toBeGreaterThan(10);
    expect(data.rows).toEqual(original.rows.slice(0, data.rows.length));
    expect(data.rowValues).toEqual(original.rowValues.slice(0, data.rowValues.length));
    expect(data.rowCount).toBe(1_000);
    expect(data.columns).toEqual(original.columns);
    expect(stored.content).toBe(output.content);

    const truncated = stored.truncated!;
    expect(StepOutputSchema.parse(stored).truncated).toEqual(truncated);
    expect(truncated.totalBytes).toBe(totalBytes);
    expect(truncated.storedBytes).toBe(storedSize({ ...stored, truncated: undefined }));
    expect(truncated.lists).toHaveLength(2);
    expect(truncated.lists).toEqual(
      expect.arrayContaining([
        { path: "data.rows", total: 1_000, stored: data.rows.length },
        { path: "data.rowValues", total: 1_000, stored: data.rowValues.length },
      ]),
    );
    expect(truncated.texts).toEqual([]);
    expect(truncated.notice).toContain(`The result was ${formatBytes(totalBytes)}, over the 1 MB a step stores; stored: ${formatBytes(truncated.storedBytes)}.`);
    expect(truncated.notice).toContain(`data.rows: the first ${data.rows.length.toLocaleString("en-US")} of 1,000 items`);
    expect(truncated.notice).toContain(`data.rowValues: the first ${data.rowValues.length.toLocaleString("en-US")} of 1,000 items`);
  });

  it("cuts a long text in the middle, keeping its start and end, and counts its true characters", () => {
    const content = `START${"a".repeat(3_000_000)}END`;
    const stored = boundStepOutput({ content });

    expect(storedSize(stored)).toBeLessThanOrEqual(MAX_STORED_RESULT_BYTES);
    expect(stored.content.startsWith("STARTaaa")).toBe(true);
    expect(stored.content.endsWith("aaaEND")).toBe(true);
    const [text] = stored.truncated!.texts;
    expect(text).toEqual({ path: "content", total: 3_000_008, stored: expect.any(Number) });
    // truncateMiddle's own notice counts the characters left out of the whole.
    expect(stored.content).toContain(`[${(3_000_008 - text!.stored).toLocaleString("en-US")} characters omitted]`);
    expect(stored.truncated!.notice).toContain(`content: ${text!.stored.toLocaleString("en-US")} of 3,000,008 characters (its middle left out)`);
  });

  it("names a cut deep in the data by its template path, and shares the room among large parts", () => {
    const stored = boundStepOutput({
      content: "nested",
      data: { report: { pages: Array.from({ length: 5_000 }, (_, page) => ({ page, text: "p".repeat(400) })), summary: "s".repeat(2_000_000) } },
    });
    expect(storedSize(stored)).toBeLessThanOrEqual(MAX_STORED_RESULT_BYTES);
    const report = (stored.data as { report: { pages: { page: number }[]; summary: string } }).report;
    expect(report.pages.map((each) => each.page)).toEqual(report.pages.map((_, index) => index));
    expect(stored.truncated!.lists).toEqual([{ path: "data.report.pages", total: 5_000, stored: report.pages.length }]);
    expect(stored.truncated!.texts).toEqual([{ path: "data.report.summary", total: 2_000_000, stored: expect.any(Number) }]);
    // Both large parts keep a share: neither takes all the room.
    expect(report.pages.length).toBeGreaterThan(100);
    expect(report.summary.length).toBeGreaterThan(100_000);
  });

  it("keeps whole images, the leading ones that fit, never half of one", () => {
    const image = (fill: string) => ({ mediaType: "image/png", data: fill.repeat(400_000) });
    const images = [image("A"), image("B"), image("C")];
    const stored = boundStepOutput({ content: "3 charts", images });

    expect(storedSize(stored)).toBeLessThanOrEqual(MAX_STORED_RESULT_BYTES);
    expect(stored.images).toEqual(images.slice(0, stored.images!.length));
    expect(stored.images!.length).toBeGreaterThan(0);
    expect(stored.truncated!.lists).toEqual([{ path: "images", total: 3, stored: stored.images!.length }]);
    expect(stored.truncated!.texts).toEqual([]);
  });

  it("keeps the start of a list's only item when even that is too large", () => {
    const stored = boundStepOutput({ content: "one", data: ["z".repeat(5_000_000)] });
    expect(storedSize(stored)).toBeLessThanOrEqual(MAX_STORED_RESULT_BYTES);
    expect((stored.data as string[])[0]!.startsWith("zzz")).toBe(true);
    expect(stored.truncated!.lists).toEqual([{ path: "data", total: 1, stored: 1 }]);
    expect(stored.truncated!.texts).toEqual([{ path: "data[0]", total: 5_000_000, stored: expect.any(Number) }]);
  });

  it("keeps the leading fields whole of an object with too many long fields to share the room among", () => {
    const data = Object.fromEntries(Array.from({ length: 30_000 }, (_, index) => [`field${index}`, "q".repeat(100)]));
    const stored = boundStepOutput({ content: "many", data });
    expect(storedSize(stored)).toBeLessThanOrEqual(MAX_STORED_RESULT_BYTES);
    const keptFields = Object.keys(stored.data as object);
    expect(keptFields.length).toBeGreaterThan(1_000);
    expect(keptFields).toEqual(Object.keys(data).slice(0, keptFields.length));
    expect(Object.values(stored.data as object).every((value) => value === "q".repeat(100))).toBe(true);
    const truncated = stored.truncated!;
    expect(truncated.fields).toEqual([{ path: "data", total: 30_000, stored: keptFields.length }]);
    expect(truncated.totalBytes).toBe(storedSize({ content: "many", data }));
    expect(truncated.notice).toMatch(/^The result was 3\.\d MB, over the 1 MB a step stores/);
    expect(truncated.notice).toContain(`data: the first ${keptFields.length.toLocaleString("en-US")} of 30,000 fields`);
  });

  it("lists a bounded number of cuts, counting the rest", () => {
    const data = Array.from({ length: 1 }, () => Object.fromEntries(Array.from({ length: 60 }, (_, index) => [`text${index}`, "t".repeat(40_000)])));
    const stored = boundStepOutput({ content: "wide", data });
    expect(storedSize(stored)).toBeLessThanOrEqual(MAX_STORED_RESULT_BYTES);
    const truncated = stored.truncated!;
    expect(truncated.lists.length + truncated.fields.length + truncated.texts.length).toBe(20);
    // The list of one record, and its 60 texts each cut to its share.
    expect(truncated.unlisted).toBe(1 + 60 - 20);
    expect(truncated.notice).toContain(`And ${(1 + 60 - 4).toLocaleString("en-US")} more cut.`);
  });

  it("keeps a router's route whatever else is cut", () => {
    const stored = boundStepOutput({ content: "c".repeat(2_000_000), route: "yes" });
    expect(stored.route).toBe("yes");
    expect(storedSize(stored)).toBeLessThanOrEqual(MAX_STORED_RESULT_BYTES);
  });
});

describe("formatBytes", () => {
  it("writes sizes in powers of 1,000 with grouped counts", () => {
    expect(formatBytes(950)).toBe("950 bytes");
    expect(formatBytes(12_345)).toBe("12.3 KB");
    expect(formatBytes(95_500_000)).toBe("95.5 MB");
  });
});
