import { describe, expect, it } from "vitest";
import { csvCell, csvLine } from "./audit-export";

describe("the security log's CSV", () => {
  it("quotes every cell and doubles the quotes inside", () => {
    expect(csvCell('say "hi", then go')).toBe('"say ""hi"", then go"');
    expect(csvCell("two\r\nlines")).toBe('"two\r\nlines"');
  });

  it("writes what a spreadsheet would run as a formula as text", () => {
    for (const formula of ["=1+1", "+SUM(A1)", "-2+3", "@cmd", "\tx", "\r=1"]) expect(csvCell(formula)).toBe(`"'${formula}"`);
    expect(csvCell("a=b")).toBe('"a=b"');
  });

  it("lays an entry out in the header's order, ending the line with CRLF", () => {
    const line = csvLine({ id: "1", at: "2026-12-04T10:00:00.000Z", actor: "Ada", actorId: null, action: "sign-in", target: null, detail: { with: "password" }, clientAddress: "127.0.0.1" });
    expect(line).toBe('"2026-12-04T10:00:00.000Z","Ada","","sign-in","","127.0.0.1","{""with"":""password""}"\r\n');
  });
});
