import type { Guardrails, PermissionMode } from "./guardrails";

/*
 * The stricter of two sets of permissions: what a run called by another run
 * (a Sub-workflow step's, a For each item's) runs under, so that calling a
 * workflow never gives it more freedom than its caller has, whatever the
 * called workflow was saved with. Every rule of the order lives here.
 */

/**
 * Modes from the most free to the strictest, as the gate (gate.ts) treats
 * them: `bypass` allows everything, `accept_edits` allows file writes but
 * asks for the rest, `default` asks for every destructive action, and `plan`
 * asks for a plan before anything as well.
 */
export const MODES_BY_STRICTNESS: readonly PermissionMode[] = ["bypass", "accept_edits", "default", "plan"];

/**
 * The stricter of two modes.
 *
 * @example stricterMode("bypass", "default") // "default"
 */
export function stricterMode(first: PermissionMode, second: PermissionMode): PermissionMode {
  return MODES_BY_STRICTNESS.indexOf(first) >= MODES_BY_STRICTNESS.indexOf(second) ? first : second;
}

/** Policies from the most free to the strictest. `readonly` (shell) refuses every command that is not read-only, in every mode. */
const SHELL_BY_STRICTNESS = ["open", "gated", "readonly", "denied"] as const;
const POLICY_BY_STRICTNESS = ["open", "gated", "denied"] as const;

function stricterOf<Value>(order: readonly Value[], first: Value, second: Value): Value {
  return order.indexOf(first) >= order.indexOf(second) ? first : second;
}

/**
 * The stricter of two sets of guardrails: each policy the stricter one (a
 * `denied` on either side wins), lists that allow what both allow (a glob
 * kept only where one side's glob covers the other's), lists that deny what
 * either denies, the smaller number of agent turns.
 *
 * @example stricterGuardrails(caller, own).localNetworkPolicy // "denied" if either says so
 */
export function stricterGuardrails(first: Guardrails, second: Guardrails): Guardrails {
  return {
    writeScope: commonGlobs(first.writeScope, second.writeScope),
    shellPolicy: stricterOf(SHELL_BY_STRICTNESS, first.shellPolicy, second.shellPolicy),
    networkPolicy: stricterOf(POLICY_BY_STRICTNESS, first.networkPolicy, second.networkPolicy),
    mcpPolicy: stricterOf(POLICY_BY_STRICTNESS, first.mcpPolicy, second.mcpPolicy),
    pathAllow: commonGlobs(first.pathAllow, second.pathAllow),
    pathDeny: [...new Set([...first.pathDeny, ...second.pathDeny])],
    maxTurns: Math.min(first.maxTurns, second.maxTurns),
    refuseBidiCommands: first.refuseBidiCommands || second.refuseBidiCommands,
    localNetworkPolicy: stricterOf(POLICY_BY_STRICTNESS, first.localNetworkPolicy, second.localNetworkPolicy),
    localNetworkAllow: commonHosts(first.localNetworkAllow, second.localNetworkAllow),
  };
}

/**
 * Globs matching only paths both lists match. Globs do not intersect in
 * general, so this keeps the narrower of each pair where one plainly covers
 * the other (`**`, `reports/**` over `reports/2024/*.md`, the same glob) and
 * drops pairs it cannot tell: it may allow less than both do, never more.
 */
function commonGlobs(first: readonly string[], second: readonly string[]): string[] {
  return commonEntries(first, second, globCovers);
}

/** The narrower of each pair of entries of which one covers the other. */
function commonEntries(first: readonly string[], second: readonly string[], covers: (wide: string, narrow: string) => boolean): string[] {
  const common = new Set<string>();
  for (const a of first) {
    for (const b of second) {
      if (covers(a, b)) common.add(b);
      else if (covers(b, a)) common.add(a);
    }
  }
  return [...common];
}

function globCovers(wide: string, narrow: string): boolean {
  if (wide === narrow || wide === "**") return true;
  if (!wide.endsWith("/**")) return false;
  const folder = wide.slice(0, -"**".length);
  // The folder itself must be plain: `a*/**` does not plainly cover `ab/c`.
  return !/[*?[\]{}]/.test(folder) && narrow.startsWith(folder);
}

/** Hosts both lists let steps reach (lib/tools/net/local-range.ts reads them): `host` covers `host:port`, the narrower is kept. */
function commonHosts(first: readonly string[], second: readonly string[]): string[] {
  return commonEntries(first, second, hostCovers);
}

function hostCovers(wide: string, narrow: string): boolean {
  const parse = (entry: string) => {
    const text = entry.trim().toLowerCase();
    // A bare IPv6 address has colons of its own and no port.
    if (text.split(":").length > 2 && !text.startsWith("[")) return { host: text, port: null };
    const match = /^\[?(.*?)\]?(?::(\d+))?$/.exec(text);
    return { host: match?.[1] ?? text, port: match?.[2] ?? null };
  };
  const w = parse(wide);
  const n = parse(narrow);
  return w.host === n.host && (w.port === null || w.port === n.port);
}
