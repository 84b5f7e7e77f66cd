import type { Scope, WorkflowScope } from "@/lib/contracts/roles";

/**
 * Every API route and what it needs, in one table: `route(key, handler)`
 * (lib/server/http.ts) looks its key up and checks it before the handler
 * runs, so a route cannot be written without saying who may call it, and
 * tests/api/route-access.test.ts fails when a route file and this table
 * disagree. Keys are the method and the route's folder under app/.
 *
 * - `signed-in`: anyone signed in (their own sessions, the tool catalog).
 * - `studio`: a studio-wide scope (secrets, MCP servers, people, the log).
 * - `workflow`: a scope on the workflow the path names, directly (`[id]` of
 *   /api/workflows) or through a run or an approval. A workflow the caller
 *   may not see is a 404, like one that does not exist; one they see without
 *   the scope is a 403 naming it.
 * - `listed`: a list or feed; the caller needs the scope, and the handler
 *   lists only what belongs to workflows they may see with it.
 * - `in-body`: the workflow is named in the body; the handler checks it with
 *   `requireWorkflowScope` after parsing.
 *
 * `handlerFindsWorkflow` (a `workflow` route on its `[id]`): the handler reads
 * the workflow anyway and answers a missing one with the same 404, so for a
 * caller who sees every workflow (owners, admins) the check reads nothing and
 * the handler's own read says whether it exists: one round trip less on a
 * route called for every run.
 */
export type RouteAccess =
  | { kind: "signed-in" }
  | { kind: "studio"; scope: Scope }
  | { kind: "workflow"; scope: WorkflowScope; from: "workflow" | "run" | "approval"; alsoStudio?: Scope; handlerFindsWorkflow?: true }
  | { kind: "listed"; scope: Scope }
  | { kind: "in-body"; scope: WorkflowScope };

const signedIn = { kind: "signed-in" } as const;
const studio = (scope: Scope) => ({ kind: "studio", scope }) as const;
const onWorkflow = (scope: WorkflowScope, alsoStudio?: Scope) => ({ kind: "workflow", scope, from: "workflow", ...(alsoStudio ? { alsoStudio } : {}) }) as const;
const onRun = (scope: WorkflowScope) => ({ kind: "workflow", scope, from: "run" }) as const;
const onApproval = (scope: WorkflowScope) => ({ kind: "workflow", scope, from: "approval" }) as const;
const listed = (scope: Scope) => ({ kind: "listed", scope }) as const;

export const ROUTE_ACCESS = {
  "GET /api/approvals": listed("run:read"),
  "GET /api/approvals/[id]": onApproval("run:read"),
  "POST /api/approvals/[id]": onApproval("approval:decide"),
  // Drafting is building: a model's proposal the person then accepts into a workflow they edit.
  "POST /api/architect/drafts": studio("workflow:edit"),
  "GET /api/audit": studio("audit:read"),
  "GET /api/audit/export": studio("audit:read"),
  "POST /api/auth/confirm": signedIn,
  "GET /api/auth/sessions": signedIn,
  "DELETE /api/auth/sessions": signedIn,
  "GET /api/events": listed("run:read"),
  // The folder picker of the file tools' settings: part of building a workflow.
  "GET /api/fs/directories": studio("workflow:edit"),
  "GET /api/metrics": studio("metrics:read"),
  "GET /api/me": signedIn,
  "PATCH /api/me": signedIn,
  "GET /api/me/notifications": signedIn,
  "PUT /api/me/notifications": signedIn,
  "PUT /api/me/password": signedIn,
  "GET /api/me/tokens": signedIn,
  "POST /api/me/tokens": signedIn,
  "DELETE /api/me/tokens/[id]": signedIn,
  "GET /api/mcp-servers": studio("mcp:manage"),
  "POST /api/mcp-servers": studio("mcp:manage"),
  "GET /api/mcp-servers/[id]": studio("mcp:manage"),
  "PUT /api/mcp-servers/[id]": studio("mcp:manage"),
  "DELETE /api/mcp-servers/[id]": studio("mcp:manage"),
  "POST /api/mcp-servers/[id]/confirm": studio("mcp:manage"),
  "POST /api/mcp-servers/[id]/test": studio("mcp:manage"),
  "GET /api/mcp-token": studio("mcp:manage"),
  "POST /api/mcp-token": studio("mcp:manage"),
  "GET /api/people": studio("people:manage"),
  // Names to share a workflow with: whoever may build workflows may pick a colleague.
  "GET /api/people/directory": studio("workflow:edit"),
  "PATCH /api/people/[id]": studio("people:manage"),
  "POST /api/people/invitations": studio("people:manage"),
  "DELETE /api/people/invitations/[id]": studio("people:manage"),
  "GET /api/runs": listed("run:read"),
  "GET /api/runs/[id]": onRun("run:read"),
  "DELETE /api/runs/[id]": onRun("run:cancel"),
  "POST /api/runs/[id]/cancel": onRun("run:cancel"),
  "GET /api/runs/[id]/events": onRun("run:read"),
  "GET /api/runs/[id]/steps/[nodeId]/output": onRun("run:read"),
  "POST /api/runs/[id]/rerun": onRun("workflow:run"),
  "POST /api/runs/[id]/retry": onRun("workflow:run"),
  // Names and descriptions only (a value never leaves the studio): what a builder picks from.
  "GET /api/secrets": studio("secret:use"),
  "POST /api/secrets": studio("secret:manage"),
  "GET /api/secrets/[name]": studio("secret:use"),
  "PUT /api/secrets/[name]": studio("secret:manage"),
  "DELETE /api/secrets/[name]": studio("secret:manage"),
  // Prices are studio-wide settings; the costs they make are shown to whoever sees the runs.
  "GET /api/settings/model-prices": studio("settings:manage"),
  "PUT /api/settings/model-prices": studio("settings:manage"),
  "GET /api/settings/retention": studio("settings:manage"),
  "PUT /api/settings/retention": studio("settings:manage"),
  "GET /api/tools": signedIn,
  "GET /api/workflows": listed("workflow:read"),
  "POST /api/workflows": studio("workflow:edit"),
  "POST /api/workflows/import": studio("workflow:edit"),
  "POST /api/workflows/validate": studio("workflow:edit"),
  // Names to pick from (error workflow, Sub-workflow step): only those the caller sees.
  "GET /api/workflows/choices": listed("workflow:read"),
  "GET /api/workflows/[id]": onWorkflow("workflow:read"),
  "PUT /api/workflows/[id]": onWorkflow("workflow:edit"),
  "DELETE /api/workflows/[id]": onWorkflow("workflow:edit"),
  // Counts of its runs, their durations and cost: what its runs show, to whoever may read them.
  "GET /api/workflows/[id]/activity": onWorkflow("run:read"),
  // A copy is a new workflow of the caller's: they read this one and may make workflows.
  // Datasets are part of building a workflow; one made from runs also needs run:read there (checked by its handler).
  "GET /api/workflows/[id]/datasets": onWorkflow("workflow:read"),
  "POST /api/workflows/[id]/datasets": onWorkflow("workflow:edit"),
  "POST /api/workflows/[id]/datasets/from-runs": onWorkflow("workflow:edit"),
  "GET /api/workflows/[id]/datasets/[datasetId]": onWorkflow("workflow:read"),
  "DELETE /api/workflows/[id]/datasets/[datasetId]": onWorkflow("workflow:edit"),
  // An evaluation's rows are runs: started by whoever may run the workflow, read and cancelled as its runs are.
  "GET /api/workflows/[id]/evaluations": onWorkflow("run:read"),
  "POST /api/workflows/[id]/evaluations": onWorkflow("workflow:run"),
  "GET /api/workflows/[id]/evaluations/preflight": onWorkflow("workflow:read"),
  "GET /api/workflows/[id]/evaluations/[evaluationId]": onWorkflow("run:read"),
  "POST /api/workflows/[id]/evaluations/[evaluationId]/cancel": onWorkflow("run:cancel"),
  "POST /api/workflows/[id]/duplicate": onWorkflow("workflow:read", "workflow:edit"),
  "GET /api/workflows/[id]/grants": onWorkflow("workflow:read"),
  // A grant lets writes skip the people who decide them: theirs to take back.
  "DELETE /api/workflows/[id]/grants/[grantId]": onWorkflow("approval:decide"),
  "GET /api/workflows/[id]/pins": onWorkflow("workflow:read"),
  "POST /api/workflows/[id]/pins": onWorkflow("workflow:edit"),
  "PUT /api/workflows/[id]/pins/[nodeId]": onWorkflow("workflow:edit"),
  "DELETE /api/workflows/[id]/pins/[nodeId]": onWorkflow("workflow:edit"),
  "GET /api/workflows/[id]/publish": onWorkflow("workflow:read"),
  "POST /api/workflows/[id]/publish": onWorkflow("workflow:publish"),
  "DELETE /api/workflows/[id]/publish": onWorkflow("workflow:publish"),
  // A workflow's own retention removes its runs.
  "PUT /api/workflows/[id]/retention": onWorkflow("run:cancel"),
  "DELETE /api/workflows/[id]/retention": onWorkflow("run:cancel"),
  // Its URL may hold the receiver's token (a Slack hook's does): read and changed by those who build the workflow.
  "GET /api/workflows/[id]/notification-webhook": onWorkflow("workflow:edit"),
  "PUT /api/workflows/[id]/notification-webhook": onWorkflow("workflow:edit"),
  "DELETE /api/workflows/[id]/notification-webhook": onWorkflow("workflow:edit"),
  // startRun reads the workflow's version, and 404s a missing one.
  "POST /api/workflows/[id]/runs": { ...onWorkflow("workflow:run"), handlerFindsWorkflow: true },
  "GET /api/workflows/[id]/samples": onWorkflow("workflow:read"),
  "GET /api/workflows/[id]/shares": onWorkflow("workflow:read"),
  // And the workflow is the caller's, or they are an owner or admin (the handler checks): an editor it was shared with
  // does not pass it on.
  "PUT /api/workflows/[id]/shares": onWorkflow("workflow:edit"),
  "GET /api/workflows/[id]/test-runs": onWorkflow("run:read"),
  // A test run runs the draft being edited: building, not running what was published.
  "POST /api/workflows/[id]/test-runs": onWorkflow("workflow:edit"),
  "GET /api/workflows/[id]/versions": onWorkflow("workflow:read"),
  "GET /api/workflows/[id]/versions/[version]": onWorkflow("workflow:read"),
  "GET /api/workflows/[id]/webhooks/[nodeId]/listen": onWorkflow("workflow:edit"),
  "POST /api/workflows/[id]/webhooks/[nodeId]/listen": onWorkflow("workflow:edit"),
  "DELETE /api/workflows/[id]/webhooks/[nodeId]/listen": onWorkflow("workflow:edit"),
} as const satisfies Record<string, RouteAccess>;

export type RouteKey = keyof typeof ROUTE_ACCESS;

/**
 * Routes open without a session, each checked by rules of its own: signing
 * in and out, the MCP endpoint (its token), webhook deliveries (each
 * webhook's own credentials). Listed so the table test knows them.
 */
export const OPEN_ROUTES = [
  "POST /api/auth/login",
  // Holds the invitation's secret: checked by the handler, once.
  "POST /api/invitations/accept",
  "POST /api/auth/logout",
  // Single sign-on: the flow's own checks (state, nonce, PKCE, the ID token) stand in for a session.
  "GET /api/auth/oidc/start",
  "GET /api/auth/oidc/callback",
  "GET /api/mcp",
  "POST /api/mcp",
  "DELETE /api/mcp",
] as const;
