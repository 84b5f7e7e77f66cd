import { relativeToRoot } from "../confinement";
import { isAllowListed, LOCAL_RANGE_WORDS } from "../net/local-range";
import type { ToolContext, WriteGrant } from "../tool-context";
import type { ApprovalAnswer } from "../io-handler";
import { firstMatch, pathRefusal } from "./path-rules";
import type { PermissionRequest } from "./permission-request";
import { isReadOnlyCommand } from "./read-only-command";
import { hasBidiControl, markHiddenCharacters } from "./visible-text";
import { alwaysAllowedFolder, folderGrantPattern } from "./write-scope";

/**
 * The gate's verdict on one action. A refusal's reason is written for the
 * model to read. `edited`: the person approved the call with these arguments
 * instead (ApprovalAnswer.arguments); the caller runs the edited call.
 */
export type GateDecision = { allowed: true; edited?: Record<string, unknown> } | { allowed: false; reason: string };

const ALLOW: GateDecision = { allowed: true };

/** A person's yes, carrying their edit of the call when they made one. */
function approved(answer: ApprovalAnswer): GateDecision {
  return answer.arguments ? { allowed: true, edited: answer.arguments } : ALLOW;
}

function refuse(reason: string): GateDecision {
  return { allowed: false, reason };
}

/** A refusal after asking: `action` is what was asked for ("writing "a.txt""), said as denied by the person or, when nobody was there, as not approved. */
function refuseAnswered(action: string, answer: ApprovalAnswer): GateDecision {
  const instruction = answer.feedback?.trim();
  if (answer.unattended) return refuse(`Nobody was there to approve ${action}, so it did not happen.${instruction ? ` ${instruction}` : ""}`);
  return refuse(instruction ? `The person denied ${action}. The person said: ${instruction}` : `The person denied ${action}. Do not retry it as is.`);
}

const PLAN_FIRST =
  "Plan mode: nothing that changes anything runs until a person approves a plan. Present your plan first.";

/**
 * Decides one destructive action: refuse (a denying guardrail, which always
 * wins), allow (mode, policy or an earlier grant), or ask a person through the
 * context's IOHandler. "Always" on a write widens the write scope to the
 * file's folder and persists that through `ctx.permissions.persistGrant`.
 */
export async function checkPermission(request: PermissionRequest, ctx: ToolContext): Promise<GateDecision> {
  switch (request.kind) {
    case "write":
      return checkWrite(request, ctx);
    case "shell":
      return checkShell(request, ctx);
    case "network":
      return checkNetwork(request, ctx);
    case "mcp":
      return checkMcp(request, ctx);
  }
}

/**
 * Checks every request in order; the first refusal wins and later ones are
 * not asked. So does an approval with an edit: the later requests were the
 * original call's, and the edited call is asked about afresh.
 */
export async function checkPermissions(requests: readonly PermissionRequest[], ctx: ToolContext): Promise<GateDecision> {
  for (const request of requests) {
    const decision = await checkPermission(request, ctx);
    if (!decision.allowed || decision.edited) return decision;
  }
  return ALLOW;
}

async function checkWrite(request: Extract<PermissionRequest, { kind: "write" }>, ctx: ToolContext): Promise<GateDecision> {
  const { mode, guardrails, planApproved } = ctx.permissions;
  const root = ctx.root ?? ctx.cwd;
  const checked = checkedRelativePath(request.path, root, ctx);
  if ("refusal" in checked) return refuse(`Refused by a guardrail: ${checked.refusal}`);
  const relative = checked.relative;
  if (mode === "plan" && !planApproved) return refuse(PLAN_FIRST);
  if (mode === "bypass" || mode === "accept_edits") return ALLOW;
  if (firstMatch(guardrails.writeScope, relative)) return ALLOW;
  if (ctx.permissions.grants.some((grant) => grant.root === root && firstMatch([grant.pattern], relative))) return ALLOW;

  const alwaysFolder = alwaysAllowedFolder(relative);
  const answer = await ctx.io.requestApproval({
    kind: "write",
    path: relative,
    root,
    alwaysFolder,
    edit: request.edit === true,
    preview: request.preview,
  });
  if (answer.decision === "deny") return refuseAnswered(`writing "${relative}"`, answer);
  if (answer.decision === "always") {
    const grant: WriteGrant = { root, pattern: folderGrantPattern(alwaysFolder) };
    ctx.permissions.grants.push(grant);
    await ctx.permissions.persistGrant?.(grant);
  }
  return approved(answer);
}

/**
 * The write's path relative to the root, or why the guardrails refuse it. A
 * declared path input was relativised and checked once, at confinement; only
 * a path the tool worked out itself is checked here.
 */
function checkedRelativePath(absolutePath: string, root: string, ctx: ToolContext): { relative: string } | { refusal: string } {
  const confined = ctx.confinedPaths?.get(absolutePath);
  if (confined !== undefined) return { relative: confined };
  const relative = relativeToRoot(root, absolutePath);
  const refusal = pathRefusal(ctx.permissions.guardrails, relative);
  return refusal ? { refusal } : { relative };
}

async function checkShell(request: Extract<PermissionRequest, { kind: "shell" }>, ctx: ToolContext): Promise<GateDecision> {
  const { mode, guardrails, planApproved } = ctx.permissions;
  const policy = guardrails.shellPolicy;
  if (policy === "denied") return refuse("Refused by a guardrail: shell commands are denied in this workflow.");
  if (guardrails.refuseBidiCommands && hasBidiControl(request.command)) {
    return refuse(
      `Refused by a guardrail: the command holds direction-changing Unicode characters (${bidiMarks(request.command)}), which make it read differently from how it runs. Write it again without them.`,
    );
  }
  if (policy === "readonly") {
    return isReadOnlyCommand(request.command)
      ? ALLOW
      : refuse(
          "Refused by a guardrail: only read-only shell commands (ls, cat, grep, git status, ...) may run in this workflow, without redirections.",
        );
  }
  if (mode === "plan" && !planApproved) return refuse(PLAN_FIRST);
  if (mode === "bypass" || policy === "open") return ALLOW;
  const answer = await ctx.io.requestApproval(request);
  return answer.decision !== "deny" ? approved(answer) : refuseAnswered("running this command", answer);
}

async function checkNetwork(request: Extract<PermissionRequest, { kind: "network" }>, ctx: ToolContext): Promise<GateDecision> {
  const { mode, guardrails, planApproved } = ctx.permissions;
  if (guardrails.networkPolicy === "denied") return refuse("Refused by a guardrail: network access is denied in this workflow.");
  if (request.local) return checkLocalNetwork(request, request.local, ctx);
  if (mode === "plan" && !planApproved) return refuse(PLAN_FIRST);
  if (mode === "bypass" || guardrails.networkPolicy === "open") return ALLOW;
  const answer = await ctx.io.requestApproval(request);
  return answer.decision !== "deny" ? approved(answer) : refuseAnswered(`${request.method} ${request.url}`, answer);
}

/**
 * A request that reaches this machine or its network (loopback, private,
 * link-local, a metadata service), reading ones included: refused under the
 * `denied` policy, allowed for a host on `localNetworkAllow`, under `open` or
 * in bypass mode, otherwise asked, saying where it leads.
 */
async function checkLocalNetwork(
  request: Extract<PermissionRequest, { kind: "network" }>,
  local: NonNullable<Extract<PermissionRequest, { kind: "network" }>["local"]>,
  ctx: ToolContext,
): Promise<GateDecision> {
  const { mode, guardrails, planApproved } = ctx.permissions;
  const where = `${local.host} leads to ${local.address}, ${LOCAL_RANGE_WORDS[local.range]}`;
  if (guardrails.localNetworkPolicy === "denied") {
    return refuse(`Refused by a guardrail: ${where}, and this workflow lets no step reach this machine or its network. Add the host to localNetworkAllow if it should.`);
  }
  if (isAllowListed(new URL(request.url), local.host, local.address, guardrails.localNetworkAllow)) return ALLOW;
  if (mode === "plan" && !planApproved) return refuse(PLAN_FIRST);
  if (mode === "bypass" || guardrails.localNetworkPolicy === "open") return ALLOW;
  const answer = await ctx.io.requestApproval(request);
  return answer.decision !== "deny" ? approved(answer) : refuseAnswered(`${request.method} ${request.url} (${where})`, answer);
}

async function checkMcp(request: Extract<PermissionRequest, { kind: "mcp" }>, ctx: ToolContext): Promise<GateDecision> {
  const { mode, guardrails, planApproved } = ctx.permissions;
  if (guardrails.mcpPolicy === "denied") return refuse("Refused by a guardrail: MCP tools are denied in this workflow.");
  if (request.readOnly) return ALLOW;
  if (mode === "plan" && !planApproved) return refuse(PLAN_FIRST);
  if (mode === "bypass" || guardrails.mcpPolicy === "open") return ALLOW;
  const { readOnly: _readOnly, ...ask } = request;
  const answer = await ctx.io.requestApproval(ask);
  return answer.decision !== "deny" ? approved(answer) : refuseAnswered(`calling ${request.tool}`, answer);
}

/** The distinct direction-changing characters of `text`, as marks: "⟨U+202E⟩, ⟨U+2066⟩". */
function bidiMarks(text: string): string {
  const marks = markHiddenCharacters(text).segments.filter((segment) => segment.kind === "mark" && segment.reason === "bidi");
  return [...new Set(marks.map((segment) => segment.text))].join(", ");
}
