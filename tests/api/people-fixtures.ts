import { expect } from "vitest";
import type { Role } from "@/lib/contracts/roles";
import { ApiClient } from "./api-client";

/** The password every invited test person chooses. */
export const PASSWORD = "correct horse battery";

/**
 * Invites someone with `role` (as `owner`), joins as them through the
 * invitation link, and returns their browser's client (signed in by cookie) and their id.
 * @example const viewer = await joinAs(server.url, server.client(), "vera", "viewer");
 */
export async function joinAs(url: string, owner: ApiClient, login: string, role: Role): Promise<{ client: ApiClient; id: string }> {
  const { link } = await owner.expect(201, "POST", "/api/people/invitations", { role, note: `for ${login}` });
  const secret = new URL(link as string).pathname.split("/").pop()!;
  const joined = await new ApiClient(url).post("/api/invitations/accept", { secret, login, displayName: login[0]!.toUpperCase() + login.slice(1), password: PASSWORD });
  expect(joined.status, joined.text).toBe(201);
  const cookie = (joined.headers.get("set-cookie") ?? "").split(";")[0]!;
  return { client: new ApiClient(url, { cookie }), id: joined.body.person.id as string };
}
