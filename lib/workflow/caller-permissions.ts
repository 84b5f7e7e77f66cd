import { stricterGuardrails, stricterMode } from "@/lib/tools/contracts";
import type { RunPermissions } from "@/lib/contracts/run";
import type { WorkflowDefinition } from "./definition";

/*
 * A run another run called (a Sub-workflow step's) never has more freedom
 * than its caller: it runs under the stricter of its own mode and guardrails
 * and its caller's. Worked out once, when it starts, and stored on the run.
 */

/** What a run calling another runs under: its own, or its caller's stricter ones (a chain of calls narrows at each step). */
export interface CallerPermissions {
  mode: WorkflowDefinition["mode"];
  guardrails: WorkflowDefinition["guardrails"];
}

/** The permissions a run of `called` runs under when `caller` calls it; null when its own are already at least as strict. */
export function permissionsUnderCaller(caller: CallerPermissions, called: WorkflowDefinition): RunPermissions | null {
  const mode = stricterMode(caller.mode, called.mode);
  const guardrails = stricterGuardrails(caller.guardrails, called.guardrails);
  if (mode === called.mode && sameGuardrails(guardrails, called.guardrails) && !agentLooser(called, mode)) return null;
  return { mode, guardrails };
}

/**
 * The definition as the engine runs it under `permissions`: their mode and
 * guardrails, and no agent step freer than their mode (an agent's own mode
 * may only narrow it).
 */
export function underPermissions(definition: WorkflowDefinition, permissions: RunPermissions | null): WorkflowDefinition {
  if (!permissions) return definition;
  return {
    ...definition,
    mode: permissions.mode,
    guardrails: permissions.guardrails,
    nodes: definition.nodes.map((node) => (node.kind === "agent" && node.mode !== undefined ? { ...node, mode: stricterMode(node.mode, permissions.mode) } : node)),
  };
}

function agentLooser(definition: WorkflowDefinition, mode: WorkflowDefinition["mode"]): boolean {
  return definition.nodes.some((node) => node.kind === "agent" && node.mode !== undefined && stricterMode(node.mode, mode) !== node.mode);
}

function sameGuardrails(first: CallerPermissions["guardrails"], second: CallerPermissions["guardrails"]): boolean {
  // Lists compare as sets: the stricter of equal lists may list them in another order.
  const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((each) => b.includes(each));
  return (Object.keys(first) as (keyof typeof first)[]).every((key) => {
    const a = first[key];
    const b = second[key];
    return Array.isArray(a) && Array.isArray(b) ? sameList(a, b) : a === b;
  });
}

/**
 * The permissions a For each item's run runs under: its loop's run's (the
 * same workflow, so its own are the same as saved). A loop's run in plan mode
 * had its plan approved before any step ran, and that plan lists the body's
 * steps: its items go on as that run does then, asking before each change,
 * rather than each presenting the plan again.
 */
export function permissionsForLoopItem(loopRun: CallerPermissions, definition: WorkflowDefinition): RunPermissions | null {
  const approved = (mode: WorkflowDefinition["mode"]) => (mode === "plan" ? "default" : mode);
  const mode = stricterMode(approved(loopRun.mode), approved(definition.mode));
  const guardrails = stricterGuardrails(loopRun.guardrails, definition.guardrails);
  if (mode === definition.mode && sameGuardrails(guardrails, definition.guardrails) && !agentLooser(definition, mode)) return null;
  return { mode, guardrails };
}
