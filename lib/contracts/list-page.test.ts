import { describe, expect, it } from "vitest";
import { decodeListCursor, encodeListCursor, listQueryString, readListParams } from "./list-page";
import { listTimeRange, RunListQuerySchema } from "./run-list";
import { WorkflowListQuerySchema } from "./workflow-list";

describe("list cursors", () => {
  it("round-trip any name (quotes, accents, emoji) as base64url", () => {
    const cursor = { sort: "name", direction: "asc" as const, value: 'Résumé "nightly" 🚀/+=', id: "01JDX3W8Z4Q7N2M5K8R1T6V9YB" };
    const text = encodeListCursor(cursor);
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeListCursor(text)).toEqual(cursor);
  });

  it("are refused when not made here, or made for another order", () => {
    expect(decodeListCursor("not a cursor")).toBeNull();
    expect(decodeListCursor(encodeListCursor({ sort: "createdAt", direction: "desc", value: 1, id: "a" }).slice(0, -3))).toBeNull();
    const made = encodeListCursor({ sort: "updatedAt", direction: "desc", value: 1_700_000_000_000, id: "a" });
    expect(WorkflowListQuerySchema.safeParse({ cursor: made }).success).toBe(true);
    const otherOrder = WorkflowListQuerySchema.safeParse({ cursor: made, sort: "name" });
    expect(otherOrder.error?.issues.map((issue) => issue.path)).toEqual([["cursor"]]);
    // A name sort's key is text; a time where text belongs was not made by this studio.
    const wrongKind = WorkflowListQuerySchema.safeParse({ sort: "name", cursor: encodeListCursor({ sort: "name", direction: "desc", value: 5, id: "a" }) });
    expect(wrongKind.error?.issues.map((issue) => issue.path)).toEqual([["cursor"]]);
  });
});

describe("list queries from an address", () => {
  it("take the defaults, treat empty parameters as absent, and read a day as a whole UTC day", () => {
    const query = RunListQuerySchema.parse({ search: "", status: "", limit: "", from: "2026-12-04", to: "2026-12-04" });
    expect(query).toMatchObject({ limit: 50, sort: "createdAt", direction: "desc", search: undefined, status: undefined });
    expect(listTimeRange(query)).toEqual({ from: new Date("2026-12-04T00:00:00.000Z"), to: new Date("2026-12-04T23:59:59.999Z") });
    expect(listTimeRange({ from: "2026-12-04T10:00:00+02:00" }).from).toEqual(new Date("2026-12-04T08:00:00Z"));
  });

  it("leave out what the schema refuses on a page, keeping the rest", () => {
    const { query, dropped } = readListParams(RunListQuerySchema, { status: ["failed", "running"], cursor: "garbage", search: "nightly", limit: "9999" });
    expect(query).toMatchObject({ status: "failed", search: "nightly", limit: 50 });
    expect(query.cursor).toBeUndefined();
    expect(dropped.sort()).toEqual(["cursor", "limit"]);
  });

  it("write only what differs from the defaults", () => {
    expect(listQueryString({ search: "a b&c", sort: "updatedAt", limit: 50, cursor: undefined, status: null }, { sort: "updatedAt", limit: 50 })).toBe("?search=a+b%26c");
    expect(listQueryString({ sort: "updatedAt" }, { sort: "updatedAt" })).toBe("");
  });
});
