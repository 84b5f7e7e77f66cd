import { describe, expect, it } from "vitest";
import { McpServerFormSchema, toFormValues } from "./mcp-server";

const form = (maxCallSeconds: string) => ({ ...toFormValues(null), name: "files", transport: "http" as const, url: "https://example.com/mcp", maxCallSeconds });

describe("the servers page's longest-call field", () => {
  it("reads empty as the studio's default and digits as seconds, and shows them back", () => {
    expect(McpServerFormSchema.parse(form("")).maxCallSeconds).toBeNull();
    const parsed = McpServerFormSchema.parse(form(" 1800 "));
    expect(parsed.maxCallSeconds).toBe(1_800);
    expect(toFormValues(parsed).maxCallSeconds).toBe("1800");
  });

  it("refuses what is not a positive whole number of seconds, on the field", () => {
    for (const text of ["0", "2.5", "soon"]) {
      const result = McpServerFormSchema.safeParse(form(text));
      expect(result.success).toBe(false);
      expect(result.error?.issues.map((issue) => issue.path.join("."))).toContain("maxCallSeconds");
    }
  });
});
