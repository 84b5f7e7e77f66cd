// What validation reports about a workflow: the API returns them, the editor pins them to
// nodes and fields, and each node kind's server (nodes/) adds its own, so they live below both.

/** One thing wrong with a workflow, pinned to the node and field it concerns. */
export interface WorkflowProblem {
  nodeId: string | null;
  /** e.g. `settings.root`, `arguments.dsn`, `edges[2].target`. */
  field: string | null;
  message: string;
  severity: "error" | "warning";
  /** Where in a text field (a Code node's code) the problem is, for an editor that marks it; 1-based. */
  at?: { line: number; column: number };
}

/** A secret or setting the workflow needs, derived (never stored), with whether it is usable. */
export interface WorkflowRequirement {
  nodeId: string;
  kind: "secret" | "setting";
  /** The secret's name, or the settings key. */
  name: string;
  /** The tool input (for secrets) it feeds. */
  field: string;
  satisfied: boolean;
  /** Why it is not usable ("is not set", the tool's `checkSecret` answer); "" when satisfied. */
  problem: string;
}
