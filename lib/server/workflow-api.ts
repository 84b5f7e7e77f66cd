import { secretsOfWorkflow } from "@/lib/tools/secrets";
import { seesEveryWorkflow } from "@/lib/contracts/roles";
import { createWorkflow, duplicateWorkflow, getWorkflow, saveWorkflow, type SaveWorkflowOptions, type WorkflowDetail } from "@/lib/persistence";
import { recordAudit } from "@/lib/persistence/audit-store";
import type { WorkflowDefinition } from "@/lib/workflow/definition";
import { placeStackedNodes } from "@/lib/workflow/place-nodes";
import { withFreshHookIds } from "@/nodes/webhook/definition";
import { withMcpServersRecorded } from "@/nodes/tool/mcp-origin";
import { introducedPrivilegedSettings, withoutPrivilegedSettings, type PrivilegedSetting } from "@/lib/workflow/privileged-settings";
import { literalSecretsIn } from "@/lib/workflow/literal-secrets";
import { validateWorkflow, type ValidationResult } from "@/lib/workflow/validate";
import type { ToolPool } from "@/lib/tools";
import { clientAddress, type Principal } from "./access/principal";
import { workflowLookup } from "./error-workflows";
import { requirePrivilegedRole, requireRecentSignIn } from "./access/recent-sign-in";
import { calledWorkflows, lookupFor, requireCallableWorkflows } from "./access/workflow-references";
import { HttpError } from "./http";
import { startStudio } from "./studio";

/**
 * Validates `principal`'s draft against the process's tools, stored secrets and the workflows they may see
 * (`workflowId`: the saved workflow it is a draft of, which they read; the workflows it names already count as seen).
 */
export async function validateWithStudio(principal: Principal, definition: unknown, workflowId: string | null = null): Promise<ValidationResult> {
  const studio = await startStudio();
  const secrets = workflowId === null ? studio.secrets : secretsOfWorkflow(studio.secrets, workflowId);
  const saved = workflowId === null ? [] : calledWorkflows((await getWorkflow(workflowId, studio.database)).definition);
  const workflows = lookupFor(principal, workflowLookup(studio.database, workflowId), new Set(saved.map((called) => called.workflowId)), studio.database);
  return validateWorkflow(definition, { pool: studio.pool(), secrets, workflows });
}

/**
 * Creates (`id` null) or saves a workflow. A save that newly chooses a setting
 * letting actions run without asking (bypass mode, an open shell policy…)
 * needs a recent sign-in and is written to the security log; keeping one that
 * the stored version already had needs neither.
 */
export async function saveWorkflowAs(
  request: Request,
  principal: Principal,
  id: string | null,
  definition: WorkflowDefinition,
  options: SaveWorkflowOptions = {},
): Promise<WorkflowDetail> {
  const studio = await startStudio();
  refuseLiteralSecrets(definition, studio.pool());
  const previous = id === null ? null : (await getWorkflow(id)).definition;
  await requireCallableWorkflows(principal, definition, previous, studio.database);
  const introduced = introducedPrivilegedSettings(definition, previous);
  // Holding such a setting, not only choosing it: an editor changing a bypass workflow's steps would run them unasked.
  const held = introduced.length > 0 ? introduced : introducedPrivilegedSettings(definition, null);
  if (held.length > 0) requirePrivilegedRole(principal, `Saving a workflow where ${held[0]!.description}`);
  if (introduced.length > 0) requireRecentSignIn(principal, `Saving a workflow where ${introduced[0]!.description}`);
  // Each MCP tool node remembers its server, so a name that later changes hands is caught before a run. A workflow
  // written without places (a script, the API) is laid out, so its cards do not all open on one spot.
  const recorded = withMcpServersRecorded(placeStackedNodes(definition), studio.pool());
  const saved = id === null ? await createWorkflow(recorded, studio.database, principal.personId) : await saveWorkflow(id, recorded, options);
  if (introduced.length > 0) {
    await recordAudit({
      actor: principal.person,
      actorId: principal.personId,
      action: "workflow-privileged-settings",
      target: saved.id,
      detail: { workflow: saved.name, version: saved.latestVersion, settings: introduced },
      clientAddress: clientAddress(request),
    });
  }
  return saved;
}

/**
 * Imports a definition from a file: whatever it chose, it arrives without the
 * settings that let actions run unasked (see withoutPrivilegedSettings);
 * `dropped` lists them for the notice the person sees.
 */
export async function importWorkflow(request: Request, principal: Principal, definition: WorkflowDefinition): Promise<{ workflow: WorkflowDetail; dropped: PrivilegedSetting[] }> {
  const studio = await startStudio();
  refuseLiteralSecrets(definition, studio.pool());
  await requireCallableWorkflows(principal, definition, null, studio.database);
  const safe = withoutPrivilegedSettings(withFreshHookIds(definition));
  const workflow = await createWorkflow(withMcpServersRecorded(placeStackedNodes(safe.definition), studio.pool()), studio.database, principal.personId);
  if (safe.dropped.length > 0) {
    await recordAudit({
      actor: principal.person,
      actorId: principal.personId,
      action: "workflow-imported-without-privileges",
      target: workflow.id,
      detail: { workflow: workflow.name, dropped: safe.dropped },
      clientAddress: clientAddress(request),
    });
  }
  return { workflow, dropped: safe.dropped };
}

/** 422 naming each secret input that holds a value, before anything is stored: nothing of it reaches the database. */
function refuseLiteralSecrets(definition: WorkflowDefinition, pool: ToolPool): void {
  const literal = literalSecretsIn(definition, pool);
  if (literal.length === 0) return;
  const message = "holds a secret written out; store it in Settings → Secrets and reference it as ${NAME}";
  throw new HttpError(422, `${literal.map((each) => each.path).join(", ")}: ${message}. Nothing was saved.`, {
    issues: literal.map((each) => ({ path: each.path, message, code: "custom" })),
  });
}

/**
 * Copies a workflow as the caller's. Someone who may not choose the settings
 * that let actions run unasked gets the copy without them, as an import does.
 */
export async function duplicateAs(principal: Principal, id: string, name: string | undefined): Promise<WorkflowDetail> {
  const studio = await startStudio();
  // The copy is a new workflow of theirs: what it would call, they must be able to run.
  await requireCallableWorkflows(principal, (await getWorkflow(id, studio.database)).definition, null, studio.database);
  const adapt = seesEveryWorkflow(principal.role) ? undefined : (definition: WorkflowDefinition) => withoutPrivilegedSettings(definition).definition;
  return duplicateWorkflow(id, name, studio.database, { ownerId: principal.personId, adapt });
}
