import type { RunLoop, RunPermissions } from "@/lib/contracts/run";
import { underPermissions } from "./caller-permissions";
import type { WorkflowDefinition } from "./definition";
import { loopBodyDefinition } from "./loop-body";

/**
 * The definition a run runs, from its version's: a For each item's run runs
 * that loop's body alone; a run another run called, under the stricter
 * permissions stored with it. Applied wherever a run is loaded or started,
 * so every drive of it runs the same.
 */
export function runDefinitionOf(version: WorkflowDefinition, run: { permissions?: RunPermissions | null; loop?: Pick<RunLoop, "nodeId"> | null }): WorkflowDefinition {
  const scoped = run.loop ? loopBodyDefinition(version, run.loop.nodeId) : version;
  return underPermissions(scoped, run.permissions ?? null);
}
