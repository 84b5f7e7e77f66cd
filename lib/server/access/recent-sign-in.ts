import { ROLE_TITLES, seesEveryWorkflow } from "@/lib/contracts/roles";
import { HttpError } from "../http";
import type { Principal } from "./principal";

/**
 * Changes that let commands run without a person's approval (a stdio MCP
 * server's command, `bypass` mode, an open shell policy…) need a recent proof
 * of identity, not just a session: a browser left open, or a session cookie
 * that leaked, is not enough (GitHub's sudo mode). The bearer token is such a
 * proof on every request.
 */
export const RECENT_SIGN_IN_MS = 5 * 60_000;

export function requireRecentSignIn(principal: Principal, what: string, because = "lets commands run on this machine without asking anyone", now = Date.now()): void {
  if (principal.via === "token" || now - principal.authenticatedAt <= RECENT_SIGN_IN_MS) return;
  // Only the first owner holds the access token; anyone else proves it with their own password.
  const proof = principal.firstOwner ? "your password or the access token" : "your password";
  throw new HttpError(403, `${what} ${because}, so confirm it is you first: enter ${proof} again.`, { reauthenticate: true });
}

/**
 * The same changes are an owner's or an admin's to make: an editor may build
 * and run, but not take away the approvals that stand between a model and
 * the machine.
 */
export function requirePrivilegedRole(principal: Principal, what: string): void {
  if (seesEveryWorkflow(principal.role)) return;
  throw new HttpError(403, `${what} lets commands run without asking anyone, so only an owner or admin may choose it; your role is ${ROLE_TITLES[principal.role]}.`);
}
