import { describe, expect, it } from "vitest";
import { CsvParser, CsvSyntaxError, parseCsv, sniffDelimiter } from "./csv-parser";

function parseInPieces(text: string, size: number): string[][] {
  const records: string[][] = [];
  const parser = new CsvParser(",");
  for (let index = 0; index < text.length; index += size) parser.push(text.slice(index, index + size), (fields) => records.push(fields));
  parser.end((fields) => records.push(fields));
  return records;
}

describe("CsvParser", () => {
  it("reads quoted fields, doubled quotes, embedded delimiters and newlines, and CRLF", () => {
    const text = 'id,name,note\r\n1,"Ada, Countess","said ""hi""\r\nthen left"\r\n2,Grace,\r\n';
    expect(parseCsv(text)).toEqual([
      ["id", "name", "note"],
      ["1", "Ada, Countess", 'said "hi"\r\nthen left'],
      ["2", "Grace", ""],
    ]);
  });

  it("gives the same records however the text is split into chunks", () => {
    const text = 'a,b\r\n"x""y","1\n2"\r\n"",z\n\n3,"4"\r';
    const whole = parseCsv(text);
    expect(whole).toEqual([
      ["a", "b"],
      ['x"y', "1\n2"],
      ["", "z"],
      ["3", "4"],
    ]);
    for (const size of [1, 2, 3, 5, 7]) expect(parseInPieces(text, size)).toEqual(whole);
  });

  it("accepts LF and lone CR line ends and a last line without a newline", () => {
    expect(parseCsv("a,b\n1,2")).toEqual([["a", "b"], ["1", "2"]]);
    expect(parseCsv("a,b\r1,2\r")).toEqual([["a", "b"], ["1", "2"]]);
  });

  it("skips blank lines but keeps a record of one empty quoted field", () => {
    expect(parseCsv('a\n\n""\n\n')).toEqual([["a"], [""]]);
  });

  it("keeps a stray quote inside an unquoted field as text", () => {
    expect(parseCsv('a,b\n5" pipe,x\n')).toEqual([["a", "b"], ['5" pipe', "x"]]);
  });

  it("uses another delimiter when told", () => {
    expect(parseCsv("a\tb\n1\t\"x\ty\"\n", "\t")).toEqual([["a", "b"], ["1", "x\ty"]]);
  });

  it("reports a quote that is never closed, with its line", () => {
    try {
      parseCsv('a,b\n1,2\n3,"open\n4,5\n');
      expect.unreachable();
    } catch (error) {
      expect(CsvSyntaxError.isInstance(error)).toBe(true);
      expect((error as CsvSyntaxError).line).toBe(3);
      expect((error as Error).message).toMatch(/line 3 is never closed/);
    }
  });

  it("passes each record's starting line to the handler", () => {
    const lines: number[] = [];
    const parser = new CsvParser(",");
    parser.push('h\n"a\nb"\n\nc\n', (_, line) => lines.push(line));
    parser.end((_, line) => lines.push(line));
    expect(lines).toEqual([1, 2, 5]);
  });
});

describe("sniffDelimiter", () => {
  it("prefers commas, then semicolons, then tabs, ignoring quoted text", () => {
    expect(sniffDelimiter("a,b;c\n")).toBe(",");
    expect(sniffDelimiter('"x,y";b;c\n1;2;3')).toBe(";");
    expect(sniffDelimiter("a\tb\n")).toBe("\t");
    expect(sniffDelimiter("single\n")).toBe(",");
  });
});
