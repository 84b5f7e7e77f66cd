/**
 * Plan mode: the plan a person approves before a run starts, as text, and the
 * key its approval is stored under.
 */
import type { ToolPool } from "@/lib/tools";
import type { WorkflowDefinition } from "../definition";
import { maskSecretInputs } from "../mask-secret-inputs";

/** The approval key of a run's plan (plan mode); one per run. */
export const PLAN_KEY = "__run__:plan";
export const PLAN_NODE = "__run__";

/** The plan a person approves in plan mode: each step in order, with what it will be given. */
export function describePlan(definition: WorkflowDefinition, pool: ToolPool, runs: (nodeId: string) => boolean): string {
  const lines = definition.nodes.flatMap((node, index): string[] => {
    if (!runs(node.id)) return [];
    // A called workflow runs under its own mode and guardrails: the plan says it is called, and with what.
    if (node.kind === "subworkflow") {
      const version = node.version === "published" ? "its published version" : `version ${node.version}`;
      return [`${index + 1}. ${node.label ?? "Sub-workflow"}: calls the workflow ${node.workflowId} (${version}) with ${JSON.stringify(node.inputs)}`];
    }
    // A loop's body is listed below it, as the steps each item runs.
    if (node.kind === "foreach") return [`${index + 1}. ${node.label ?? "For each"}: runs the steps inside it once per item of ${node.list}, ${node.concurrency} at a time`];
    if (node.kind !== "tool") return [];
    const tool = pool.get(node.tool);
    const operation = node.operation && tool?.operations?.[node.operation] ? ` — ${tool.operations[node.operation]!.title}` : "";
    const args = tool ? maskSecretInputs(tool, node.arguments) : node.arguments;
    return [`${index + 1}. ${node.label ?? tool?.title ?? node.tool}${operation}: ${JSON.stringify(args)}`];
  });
  return [`Plan for "${definition.name}":`, ...lines].join("\n");
}
