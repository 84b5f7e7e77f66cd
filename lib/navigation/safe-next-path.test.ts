import { describe, expect, it } from "vitest";
import { DEFAULT_NEXT_PATH, safeNextPath } from "./safe-next-path";

describe("safeNextPath", () => {
  it("keeps a path inside the studio, with its query and fragment", () => {
    expect(safeNextPath("/runs/abc?status=failed#events")).toBe("/runs/abc?status=failed#events");
    expect(safeNextPath("/")).toBe("/");
    expect(safeNextPath(["/inbox", "/other"])).toBe("/inbox");
  });

  it.each([
    ["/\\host"],
    ["/\\\\host"],
    ["\\\\host"],
    ["//host"],
    ["/\t/host"],
    ["/\n/host"],
    ["/\u200B/host"],
    ["/ /host"],
    ["https://host/"],
    ["javascript:alert(1)"],
    ["host"],
    [""],
    [`/${"a".repeat(2_001)}`],
  ])("refuses %j", (value) => {
    expect(safeNextPath(value)).toBe(DEFAULT_NEXT_PATH);
  });

  it("refuses what is missing", () => {
    expect(safeNextPath(undefined)).toBe(DEFAULT_NEXT_PATH);
    expect(safeNextPath(null)).toBe(DEFAULT_NEXT_PATH);
    expect(safeNextPath([])).toBe(DEFAULT_NEXT_PATH);
  });

  it("normalises dot segments without leaving the studio", () => {
    expect(safeNextPath("/a/../../inbox")).toBe("/inbox");
  });
});
