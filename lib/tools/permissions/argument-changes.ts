import { canonicalJson } from "./canonical-json";

// Pure, so the approval card shows the same changes the model is told of.

/** One argument a person changed when approving a call; `from`/`to` are undefined when the argument was added or removed. */
export interface ArgumentChange {
  field: string;
  from?: unknown;
  to?: unknown;
}

/**
 * The arguments that differ between what was proposed and what was approved, in the order of the proposal, then the added ones.
 *
 * @example
 *   argumentChanges({ command: "ls", cwd: "." }, { command: "ls -la", cwd: "." }); // [{ field: "command", from: "ls", to: "ls -la" }]
 */
export function argumentChanges(proposed: Record<string, unknown>, approved: Record<string, unknown>): ArgumentChange[] {
  const fields = [...new Set([...Object.keys(proposed), ...Object.keys(approved)])];
  return fields.flatMap((field) => {
    const from = proposed[field];
    const to = approved[field];
    if (canonicalJson(from ?? null) === canonicalJson(to ?? null)) return [];
    return [{ field, ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) }];
  });
}

/**
 * What the model reads before the result of a call a person edited, so it
 * does not take the result for its own call's: which fields changed, from
 * what to what.
 *
 * @example
 *   describeEdit([{ field: "command", from: "rm -rf build", to: "rm -rf build/tmp" }]);
 *   // 'A person edited this call before approving it; what ran is the edited call, not yours. Changed: `command` from "rm -rf build" to "rm -rf build/tmp".'
 */
export function describeEdit(changes: readonly ArgumentChange[]): string {
  const described = changes.map((change) => {
    if (change.from === undefined) return `\`${change.field}\` set to ${JSON.stringify(change.to)}`;
    if (change.to === undefined) return `\`${change.field}\` removed (was ${JSON.stringify(change.from)})`;
    return `\`${change.field}\` from ${JSON.stringify(change.from)} to ${JSON.stringify(change.to)}`;
  });
  return `A person edited this call before approving it; what ran is the edited call, not yours. Changed: ${described.join("; ")}.`;
}
