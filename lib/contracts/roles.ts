import { z } from "zod";

/**
 * Who may do what: the scopes a request can need, the built-in roles as sets
 * of scopes, and how a workflow's share narrows a person's role on it. The
 * one list every side reads (the server's checks, the People page, tokens,
 * the README's table is checked against it).
 */

/**
 * Scopes that act on one workflow (and what belongs to it: runs, approvals,
 * pins, versions). A person holds them on a workflow only as far as the
 * workflow is theirs or shared with them; the rest are studio-wide.
 */
export const WORKFLOW_SCOPES = [
  "workflow:read",
  "workflow:edit",
  "workflow:publish",
  "workflow:run",
  "run:read",
  "run:cancel",
  "approval:decide",
  "secret:use",
] as const;
export type WorkflowScope = (typeof WORKFLOW_SCOPES)[number];

export const SCOPES = [...WORKFLOW_SCOPES, "secret:manage", "mcp:manage", "people:manage", "audit:read", "settings:manage", "metrics:read"] as const;
export const ScopeSchema = z.enum(SCOPES);
export type Scope = z.infer<typeof ScopeSchema>;

/** What each scope lets a person do, in the words the People page and token form use. */
export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  "workflow:read": "see workflows, their versions and pins",
  "workflow:edit": "create, change, import and delete workflows",
  "workflow:publish": "publish a version (what webhooks, schedules and callers run)",
  "workflow:run": "start runs, test runs and re-runs",
  "run:read": "see runs, their steps and live events",
  "run:cancel": "cancel and delete runs",
  "approval:decide": "approve or deny what waits for a person",
  "secret:use": "use secrets in workflows (never read their values)",
  "secret:manage": "add, replace and remove secrets",
  "mcp:manage": "add and change MCP servers, the MCP token",
  "people:manage": "invite people, change roles, deactivate",
  "audit:read": "read and export the security log",
  "settings:manage": "change studio-wide settings such as data retention and model prices",
  "metrics:read": "read the studio's metrics at /metrics (Prometheus)",
};

export const ROLES = ["owner", "admin", "editor", "approver", "viewer"] as const;
export const RoleSchema = z.enum(ROLES);
export type Role = z.infer<typeof RoleSchema>;

/**
 * The built-in roles. An editor builds and runs but does not decide
 * approvals: the person deciding should not be the one (or the model) asking.
 * Owner and admin differ only in who may change them: only an owner makes or
 * removes an owner.
 */
export const ROLE_SCOPES: Record<Role, readonly Scope[]> = {
  owner: SCOPES,
  admin: SCOPES,
  editor: ["workflow:read", "workflow:edit", "workflow:publish", "workflow:run", "run:read", "run:cancel", "secret:use"],
  approver: ["workflow:read", "run:read", "approval:decide"],
  viewer: ["workflow:read", "run:read"],
};

export const ROLE_TITLES: Record<Role, string> = { owner: "Owner", admin: "Admin", editor: "Editor", approver: "Approver", viewer: "Viewer" };

/** Roles that see and may act on every workflow, shared or not. */
export function seesEveryWorkflow(role: Role): boolean {
  return role === "owner" || role === "admin";
}

export function roleHasScope(role: Role, scope: Scope): boolean {
  return ROLE_SCOPES[role].includes(scope);
}

/** The roles a workflow can be shared with: the ones that act on workflows, never more than the person's own. */
export const SHARE_ROLES = ["editor", "approver", "viewer"] as const satisfies readonly Role[];
export const ShareRoleSchema = z.enum(SHARE_ROLES);
export type ShareRole = z.infer<typeof ShareRoleSchema>;
