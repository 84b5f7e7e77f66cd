/**
 * Whether a step may have changed the world: such a step starts only once its
 * start is stored and is never run again after a restart cut it off (at most
 * once); the others may start at once and simply run again.
 */
import { onlyComputes } from "@/nodes/definitions";
import type { WorkflowNode } from "../definition";
import type { EngineContext } from "./engine-context";

/** Whether running `node` may have changed something outside the run (a tool that is not read-only; an unknown one counts). */
export function changesTheWorld(engine: EngineContext, node: WorkflowNode | undefined): boolean {
  if (node?.kind !== "tool") return false;
  const tool = engine.options.pool().get(node.tool);
  if (!tool) return true;
  return tool.isDestructive((node.operation ? { ...node.arguments, operation: node.operation } : node.arguments) as never);
}

/** Whether `node` may start before its start is stored: running it again is harmless (a read-only tool, a step that only computes). */
export function startsBeforeStored(engine: EngineContext, node: WorkflowNode): boolean {
  return node.kind === "tool" ? !changesTheWorld(engine, node) : onlyComputes(node.kind);
}
