import type { WorkflowDefinition } from "./definition";

/**
 * Choices in a workflow that let actions run without a person's approval:
 * `bypass` and `accept_edits` modes (the workflow's or an agent's), an open
 * shell, network, MCP or local-network policy, a non-empty `writeScope`
 * (writes approved in advance) and a non-empty `localNetworkAllow` (hosts on
 * this machine or its network reached without asking). Choosing one is a privileged change (it needs a recent
 * sign-in and is written to the security log), and an imported workflow never
 * brings one with it. One list, used by both.
 */
export interface PrivilegedSetting {
  /** Dotted path in the definition, e.g. `guardrails.shellPolicy` or `nodes.2.mode`. */
  path: string;
  value: string;
  /** What it lets happen, for a person. */
  description: string;
}

const AUTONOMOUS_MODES: Record<string, string> = {
  bypass: "runs everything without asking",
  accept_edits: "writes files without asking",
};

const OPEN_POLICIES = [
  ["shellPolicy", "runs shell commands without asking"],
  ["networkPolicy", "sends requests that change things without asking"],
  ["mcpPolicy", "calls MCP tools that change things without asking"],
  ["localNetworkPolicy", "reaches this machine and its network without asking"],
] as const;

export function privilegedSettings(definition: WorkflowDefinition): PrivilegedSetting[] {
  const found: PrivilegedSetting[] = [];
  const mode = AUTONOMOUS_MODES[definition.mode];
  if (mode) found.push({ path: "mode", value: definition.mode, description: `the workflow ${mode} (mode ${definition.mode})` });
  for (const [policy, effect] of OPEN_POLICIES) {
    if (definition.guardrails[policy] === "open") found.push({ path: `guardrails.${policy}`, value: "open", description: `the workflow ${effect} (${policy} open)` });
  }
  if (definition.guardrails.localNetworkAllow.length > 0) {
    const hosts = definition.guardrails.localNetworkAllow.join(", ");
    found.push({ path: "guardrails.localNetworkAllow", value: hosts, description: `steps reach ${hosts} on this machine or its network without asking (localNetworkAllow)` });
  }
  if (definition.guardrails.writeScope.length > 0) {
    const scope = definition.guardrails.writeScope.join(", ");
    found.push({ path: "guardrails.writeScope", value: scope, description: `writes to ${scope} are approved in advance (writeScope)` });
  }
  definition.nodes.forEach((node, index) => {
    if (node.kind !== "agent" || !node.mode) return;
    const agentMode = AUTONOMOUS_MODES[node.mode];
    if (agentMode) found.push({ path: `nodes.${index}.mode`, value: node.mode, description: `agent ${node.label ?? node.id} ${agentMode} (mode ${node.mode})` });
  });
  return found;
}

/** The privileged settings `next` has that `previous` (null: a new workflow) did not. */
export function introducedPrivilegedSettings(next: WorkflowDefinition, previous: WorkflowDefinition | null): PrivilegedSetting[] {
  const before = new Set((previous ? privilegedSettings(previous) : []).map(settingKey));
  return privilegedSettings(next).filter((setting) => !before.has(settingKey(setting)));
}

function settingKey(setting: PrivilegedSetting): string {
  return `${setting.path}=${setting.value}`;
}

/**
 * The definition as an import may bring it: `default` mode for the workflow
 * and its agents where an autonomous one was chosen, gated policies where
 * open ones were, no writes approved in advance. `dropped` says what changed,
 * for the notice the person sees.
 */
export function withoutPrivilegedSettings(definition: WorkflowDefinition): { definition: WorkflowDefinition; dropped: PrivilegedSetting[] } {
  const dropped = privilegedSettings(definition);
  if (dropped.length === 0) return { definition, dropped };
  const guardrails = { ...definition.guardrails, writeScope: [], localNetworkAllow: [] };
  for (const [policy] of OPEN_POLICIES) if (guardrails[policy] === "open") guardrails[policy] = "gated";
  return {
    definition: {
      ...definition,
      mode: AUTONOMOUS_MODES[definition.mode] ? "default" : definition.mode,
      guardrails,
      nodes: definition.nodes.map((node) => (node.kind === "agent" && node.mode && AUTONOMOUS_MODES[node.mode] ? { ...node, mode: undefined } : node)),
    },
    dropped,
  };
}
