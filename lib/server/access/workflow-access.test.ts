import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROLE_SCOPES, type Role, type Scope } from "@/lib/contracts/roles";
import { createWorkflow } from "@/lib/persistence";
import { replaceShares } from "@/lib/persistence/share-store";
import { openTempDatabase, type TempDatabase } from "@/lib/persistence/temp-database";
import type { Principal } from "./principal";
import { scopesOnWorkflow, visibleWorkflows, workflowIdsWith } from "./workflow-access";

let temp: TempDatabase;
const people: Record<string, string> = {};

beforeAll(async () => {
  temp = await openTempDatabase();
  for (const [login, role] of [["olga", "owner"], ["eve", "editor"], ["ed", "editor"], ["val", "viewer"], ["ann", "approver"]] as const) {
    people[login] = (await temp.database.person.create({ data: { id: `person-${login}`, login, displayName: login, role } })).id;
  }
});

afterAll(async () => {
  await temp.close();
});

function principal(login: string, role: Role, scopes: readonly Scope[] = ROLE_SCOPES[role]): Principal {
  return { person: login, personId: people[login]!, role, scopes: new Set(scopes), via: "session", tokenName: null, sessionId: null, authenticatedAt: 0, firstOwner: login === "olga" };
}

const sorted = (scopes: ReadonlySet<Scope> | null) => (scopes === null ? null : [...scopes].sort());
const definition = (name: string) => ({ name, nodes: [{ id: "in", kind: "input" as const }], edges: [] });

describe("what a person may do on a workflow", () => {
  it("owners and admins everything, its maker their own role's, a share the smaller of both roles, anyone else nothing", async () => {
    const eves = (await createWorkflow(definition("Eve's"), temp.database, people.eve!)).id;
    const old = (await createWorkflow(definition("From before people"), temp.database, null)).id;
    await replaceShares(eves, [{ subject: { personId: people.ann! }, role: "editor" }, { subject: { role: "viewer" }, role: "viewer" }], "eve", temp.database);

    expect(sorted(await scopesOnWorkflow(principal("olga", "owner"), eves, temp.database))).toEqual([...ROLE_SCOPES.owner].sort());
    expect(sorted(await scopesOnWorkflow(principal("eve", "editor"), eves, temp.database))).toEqual([...ROLE_SCOPES.editor].sort());
    // Shared as editor, but an approver: what both roles allow, never more than their own.
    expect(sorted(await scopesOnWorkflow(principal("ann", "approver"), eves, temp.database))).toEqual(["run:read", "workflow:read"]);
    expect(sorted(await scopesOnWorkflow(principal("val", "viewer"), eves, temp.database))).toEqual(["run:read", "workflow:read"]);
    expect(await scopesOnWorkflow(principal("ed", "editor"), eves, temp.database)).toBeNull();
    // A workflow made before people existed is the first owner's: an editor does not see it unshared.
    expect(await scopesOnWorkflow(principal("eve", "editor"), old, temp.database)).toBeNull();
    expect(await scopesOnWorkflow(principal("olga", "owner"), "no-such-workflow", temp.database)).toBeNull();
    // A token narrows further.
    expect(sorted(await scopesOnWorkflow(principal("eve", "editor", ["run:read"]), eves, temp.database))).toEqual(["run:read"]);

    const listed = async (who: Principal) => {
      const filter = visibleWorkflows(who);
      return (await temp.database.workflow.findMany({ where: filter ?? {}, select: { id: true } })).map((row) => row.id).sort();
    };
    expect(await listed(principal("ed", "editor"))).toEqual([]);
    expect(await listed(principal("val", "viewer"))).toEqual([eves]);
    expect(await listed(principal("olga", "owner"))).toEqual([eves, old].sort());
    expect(await workflowIdsWith(principal("ann", "approver"), "approval:decide", temp.database)).toEqual(new Set());
    expect(await workflowIdsWith(principal("val", "viewer"), "run:read", temp.database)).toEqual(new Set([eves]));
    expect(await workflowIdsWith(principal("olga", "owner"), "run:read", temp.database)).toBeNull();
  });
});
