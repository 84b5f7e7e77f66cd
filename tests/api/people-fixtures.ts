import { expect } from "vitest";
import type { Role } from "@/lib/contracts/roles";
import { ApiClient } from "./api-client";

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
