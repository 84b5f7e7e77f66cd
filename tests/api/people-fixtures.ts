import { expect } from "vitest";
import { ROLE_SCOPES, type Role } from "@/lib/contracts/roles";
import type { RouteAccess } from "@/lib/server/access/route-access";
import { ApiClient } from "./api-client";
import { chain } from "./fixtures";

/** The password every person a test invites chooses. */
export const PERSON_PASSWORD = "correct horse battery";

export interface JoinedPerson {
  /** Their browser: a client with the session cookie joining gave them. */
  client: ApiClient;
  id: string;
}

/**
 * Invites someone with `role` (as `owner`, who may manage people) and joins
 * as them with the invitation's secret, as a person opening the link does.
 * Their shown name is `displayName`, else the login capitalised.
 */
export async function invitePerson(owner: ApiClient, login: string, role: Role, displayName = login[0]!.toUpperCase() + login.slice(1)): Promise<JoinedPerson> {
  const { link } = await owner.expect(201, "POST", "/api/people/invitations", { role, note: `for ${login}` });
  const secret = new URL(link as string).pathname.split("/").pop()!;
  const joined = await new ApiClient(owner.baseUrl).post("/api/invitations/accept", { secret, login, displayName, password: PERSON_PASSWORD });
  expect(joined.status, joined.text).toBe(201);
  const cookie = (joined.headers.get("set-cookie") ?? "").split(";")[0]!;
  return { client: new ApiClient(owner.baseUrl, { cookie }), id: joined.body.person.id as string };
}

/** A client holding a personal access token of `person` (with `scopes`) that was revoked: it proves nothing any more. */
export async function revokedTokenOf(person: ApiClient, scopes: string[] = ["run:read"]): Promise<ApiClient> {
  const { token, record } = await person.expect(201, "POST", "/api/me/tokens", { name: "soon revoked", scopes });
  await person.expect(200, "DELETE", `/api/me/tokens/${record.id}`);
  return new ApiClient(person.baseUrl, { token });
}

/**
 * 403 when `role` (on a workflow, the role it is shared with; owners and admins see every workflow with theirs) lacks
 * what the route needs; null when it passes the check.
 */
export function refusedFor(role: Role, access: RouteAccess): 403 | null {
  if (access.kind === "signed-in") return null;
  return ROLE_SCOPES[role].includes(access.scope) && (access.kind !== "workflow" || !access.alsoStudio || ROLE_SCOPES[role].includes(access.alsoStudio)) ? null : 403;
}

/** A workflow that does nothing but finish: input → output. */
export const simpleWorkflow = (name: string) => ({ name, nodes: [{ id: "in", kind: "input" }, { id: "out", kind: "output", value: "done" }], edges: chain("in", "out") });
