import { describe, expect, it } from "vitest";
import { safeNextPath } from "./safe-next-path";

describe("safeNextPath", () => {
  it("keeps paths inside the studio", () => {
    expect(safeNextPath("/workflows/abc?tab=runs")).toBe("/workflows/abc?tab=runs");
    expect(safeNextPath(["/inbox", "/x"])).toBe("/inbox");
  });

  it("refuses other sites, however they are spelled", () => {
    for (const next of ["//attacker.example", "/\\attacker.example", "https://attacker.example", "javascript:alert(1)", "/\t/attacker.example", "", undefined, null]) {
      expect(safeNextPath(next), String(next)).toBe("/");
    }
  });
});
