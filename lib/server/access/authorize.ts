import { ROLE_TITLES, seesEveryWorkflow, type Scope } from "@/lib/contracts/roles";
import { getDatabase, NotFoundError, type StudioDatabase } from "@/lib/persistence";
import { workflowIdOf } from "@/lib/persistence/access-queries";
import { recordAudit } from "@/lib/persistence/audit-store";
import { HttpError } from "../http-error";
import { pathId } from "../path-id";
import { clientAddress, type Principal } from "./principal";
import type { RouteAccess } from "./route-access";
import { scopesOnWorkflow } from "./workflow-access";

/**
 * The one authorization check: does this person, with this credential, hold
 * what the route needs (lib/server/access/route-access.ts)? A refusal is a
 * 403 that names the scope and is written to the security log; an object on
 * a workflow the person may not see is a 404, indistinguishable from one
 * that does not exist, so ids guessed from elsewhere tell nothing.
 */
export async function authorize(
  principal: Principal,
  access: RouteAccess,
  params: Record<string, string | string[] | undefined>,
  request: Request,
  database: StudioDatabase = getDatabase(),
): Promise<void> {
  switch (access.kind) {
    case "signed-in":
      return;
    case "studio":
    case "listed":
    case "in-body":
      if (!principal.scopes.has(access.scope)) await refuse(principal, access.scope, null, request, database);
      return;
    case "workflow": {
      if (access.alsoStudio && !principal.scopes.has(access.alsoStudio)) await refuse(principal, access.alsoStudio, null, request, database);
      const id = pathId(String(params.id ?? ""), access.from);
      if (access.handlerFindsWorkflow && access.from === "workflow" && seesEveryWorkflow(principal.role)) {
        // Theirs to see if it exists, which the handler's own read of it says (a 404 like the one below).
        if (!principal.scopes.has(access.scope)) await refuse(principal, access.scope, id, request, database);
        return;
      }
      const workflowId = await workflowOf(access.from, id, database);
      if (workflowId === null) throw new NotFoundError(access.from, id);
      await requireWorkflowScope(principal, workflowId, access.scope, request, database, { kind: access.from, id });
      return;
    }
  }
}

/**
 * Checks `scope` on `workflowId` for a handler that found the workflow in a
 * body; `shownAs` is what the 404 names (the workflow, or the run or
 * approval the path named).
 */
export async function requireWorkflowScope(
  principal: Principal,
  workflowId: string,
  scope: Scope,
  request: Request,
  database: StudioDatabase = getDatabase(),
  shownAs: { kind: string; id: string } = { kind: "workflow", id: workflowId },
): Promise<void> {
  const scopes = await scopesOnWorkflow(principal, workflowId, database);
  // Not theirs to see: exactly what a missing one answers.
  if (scopes === null) throw new NotFoundError(shownAs.kind, shownAs.id);
  if (!scopes.has(scope)) await refuse(principal, scope, workflowId, request, database);
}

async function workflowOf(kind: "workflow" | "run" | "approval", id: string, database: StudioDatabase): Promise<string | null> {
  return kind === "workflow" ? id : workflowIdOf(kind, id, database);
}

async function refuse(principal: Principal, scope: Scope, workflowId: string | null, request: Request, database: StudioDatabase): Promise<never> {
  const where = workflowId === null ? "" : " on this workflow";
  const by =
    principal.via === "personal-token"
      ? `the token “${principal.tokenName}” does not carry it${where}`
      : `your role (${ROLE_TITLES[principal.role]}) does not include it${where}`;
  await recordAudit(
    {
      actor: principal.person,
      actorId: principal.personId,
      action: "access-refused",
      target: workflowId,
      detail: { scope, request: `${request.method} ${new URL(request.url).pathname}` },
      clientAddress: clientAddress(request),
    },
    database,
  );
  throw new HttpError(403, `This needs the ${scope} scope, and ${by}. Ask an owner or admin if you need it.`, { scope });
}
