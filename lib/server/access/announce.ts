import { adoptOwnerlessWorkflows, firstOwner } from "@/lib/persistence/people-store";
import { readEnvironment } from "@/lib/env";
import { deleteExpiredSessions } from "@/lib/persistence/session-store";
import type { StudioDatabase } from "@/lib/persistence";
import { accessToken, accessTokenFilePath, signInLink } from "./access-token";

/** Where a person on this machine opens the studio: STUDIO_PUBLIC_URL, else the bound address (loopback for "every interface"). */
export function studioBaseUrl(): string {
  const environment = readEnvironment();
  if (environment.STUDIO_PUBLIC_URL) return environment.STUDIO_PUBLIC_URL;
  const host = environment.HOST.replace(/^\[|\]$/g, "");
  const shown = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host;
  return `http://${shown}:${environment.PORT}`;
}

/**
 * At start: make sure the access token exists, forget expired sessions, and
 * print the sign-in link (the Jupyter way), so `npm run studio` is one click
 * from a signed-in browser.
 */
export async function prepareAccess(database: StudioDatabase): Promise<void> {
  const fromEnvironment = readEnvironment().STUDIO_TOKEN !== undefined;
  accessToken();
  await deleteExpiredSessions(database);
  // The first owner exists from the first start: the access token, and everything made before people existed, are theirs.
  const owner = await firstOwner(database);
  const adopted = await adoptOwnerlessWorkflows(owner.id, database);
  if (adopted > 0) console.log(`[studio] ${adopted} workflow(s) made with no owner are now the owner's (${owner.displayName})`);
  console.log(`[studio] sign in by opening this link (it holds the access token${fromEnvironment ? " from STUDIO_TOKEN" : `, kept in ${accessTokenFilePath()}`}):`);
  console.log(`[studio]     ${signInLink(studioBaseUrl())}`);
}
