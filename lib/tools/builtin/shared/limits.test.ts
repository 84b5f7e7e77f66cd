import { describe, expect, it } from "vitest";
import { OutputBuffer } from "../system/output-buffer";
import { truncateMiddle } from "./limits";

const omittedIn = (text: string) => [...text.matchAll(/\[([\d,]+) characters omitted\]/g)].map((match) => Number(match[1]!.replaceAll(",", "")));
const withoutNotice = (text: string) => text.replace(/\n… \[[\d,]+ characters omitted\] …\n/, "");

describe("truncateMiddle", () => {
  it("leaves text within the limit alone", () => {
    expect(truncateMiddle("short", 100)).toBe("short");
  });

  it("keeps the head and the tail, and counts what it left out", () => {
    const text = `${"h".repeat(500)}${"m".repeat(10_000)}${"t".repeat(500)}`;
    const cut = truncateMiddle(text, 1_000);
    expect(cut.length).toBeLessThanOrEqual(1_000);
    expect(cut.startsWith("h".repeat(400))).toBe(true);
    expect(cut.endsWith("t".repeat(400))).toBe(true);
    expect(withoutNotice(cut).length + omittedIn(cut)[0]!).toBe(text.length);
  });

  it("counts from the whole when cutting what a buffer already cut: one notice, the true count", () => {
    const buffer = new OutputBuffer(2_000);
    for (let index = 0; index < 1_000; index++) buffer.append(`${String(index).padStart(4, "0")}:${"x".repeat(995)}\n`);
    expect(buffer.length).toBe(1_001_000);
    for (const limit of [500, 1_500, 5_000]) {
      const cut = truncateMiddle(buffer.kept(), limit);
      expect(omittedIn(cut)).toHaveLength(1);
      expect(withoutNotice(cut).length + omittedIn(cut)[0]!).toBe(1_001_000);
      expect(cut.startsWith("0000:")).toBe(true);
      expect(cut.endsWith("x\n")).toBe(true);
    }
    expect(withoutNotice(buffer.text()).length + omittedIn(buffer.text())[0]!).toBe(1_001_000);
  });
});
