import { headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import type { Scope } from "@/lib/contracts/roles";
import type { StudioDatabase } from "@/lib/persistence";
import { authenticate, type Principal } from "./principal";
import { scopesOnWorkflow } from "./workflow-access";

/**
 * Who is looking at a page. proxy.ts lets no page through without a
 * credential, so null here means the session ended between the two (signed
 * out elsewhere, deactivated): back to the sign-in page.
 */
export async function pagePrincipal(): Promise<Principal> {
  const principal = await authenticate({ headers: await headers() });
  if (!principal) redirect("/login");
  return principal;
}

/**
 * The scopes the viewer of a page holds on a workflow, or the 404 page when
 * they may not see it (or it does not exist): the same answer either way.
 */
export async function pageScopesOnWorkflow(principal: Principal, workflowId: string, database: StudioDatabase, needed: Scope = "workflow:read"): Promise<ReadonlySet<Scope>> {
  const scopes = await scopesOnWorkflow(principal, workflowId, database);
  if (scopes === null || !scopes.has(needed)) notFound();
  return scopes;
}
