import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROLE_SCOPES, ROLES, SCOPE_DESCRIPTIONS, SCOPES, WORKFLOW_SCOPES } from "./roles";

describe("roles and scopes", () => {
  it("are what the README's table says, row for row", () => {
    const readme = readFileSync(path.join(import.meta.dirname, "../../README.md"), "utf8");
    const rows = [...readme.matchAll(/^\| `([a-z]+:[a-z]+)` \| ([^|]+) \|((?: [✓ ]? \|){5})$/gm)].map((match) => ({
      scope: match[1],
      description: match[2]!.trim(),
      roles: match[3]!.split("|").slice(0, 5).map((cell) => cell.trim() === "✓"),
    }));
    expect(rows.map((row) => row.scope)).toEqual([...SCOPES]);
    for (const row of rows) {
      expect(row.description, row.scope).toBe(SCOPE_DESCRIPTIONS[row.scope as keyof typeof SCOPE_DESCRIPTIONS]);
      expect(row.roles, row.scope).toEqual(ROLES.map((role) => ROLE_SCOPES[role].includes(row.scope as (typeof SCOPES)[number])));
    }
  });

  it("give every role a subset of the owner's, and keep deciding approvals out of the editor's", () => {
    for (const role of ROLES) expect(ROLE_SCOPES[role].every((scope) => ROLE_SCOPES.owner.includes(scope))).toBe(true);
    expect(ROLE_SCOPES.editor).not.toContain("approval:decide");
    expect(WORKFLOW_SCOPES.every((scope) => (SCOPES as readonly string[]).includes(scope))).toBe(true);
  });
});
