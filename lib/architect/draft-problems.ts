/**
 * What is wrong with a draft, in one shape for the model's repair round and
 * the person's review: the answer's schema issues (a tool that does not
 * exist, a credential, a privileged mode), the studio validator's problems
 * (an edge to a missing node, a cycle, a template naming a step that is not
 * upstream), and the plan's steps whose tool does not do what the step needs.
 * A problem only the person can settle (a setting to fill in, a secret to
 * store) is theirs: it is listed for them and never sent back to the model,
 * which may not set settings or see secrets.
 */
import type { z } from "zod";
import type { CatalogTool } from "@/lib/contracts/catalog";
import type { WorkflowProblem } from "@/lib/contracts/workflow-problem";
import { fieldPath } from "@/lib/tools/validation";
import type { Draft, DraftToolStep } from "./draft-schema";

export interface DraftProblem {
  /** Where, as a path into the draft (`nodes[2].tool`) or the workflow (`settings.root` of `nodeId`). */
  path: string;
  nodeId: string | null;
  message: string;
  /** `model`: sent back for repair; `person`: theirs to settle after accepting (a setting, a stored secret). */
  for: "model" | "person";
}

/** The answer's schema issues, each at its path; the node named when the path is inside one. */
export function schemaProblems(error: z.ZodError, answer: unknown): DraftProblem[] {
  const nodes = Array.isArray((answer as { nodes?: unknown })?.nodes) ? ((answer as { nodes: unknown[] }).nodes as { id?: unknown }[]) : [];
  return error.issues.map((issue) => {
    const index = issue.path[0] === "nodes" && typeof issue.path[1] === "number" ? issue.path[1] : null;
    const id = index === null ? null : nodes[index]?.id;
    return { path: fieldPath(issue.path) || "(answer)", nodeId: typeof id === "string" ? id : null, message: issue.message.replace(/^Invalid input: /, ""), for: "model" as const };
  });
}

/** The validator's errors (warnings are not a draft's problems): settings and secrets are the person's, the rest the model's. */
export function validationProblems(problems: readonly WorkflowProblem[]): DraftProblem[] {
  return problems
    .filter((problem) => problem.severity === "error")
    .map((problem) => ({
      path: problem.field ?? "",
      nodeId: problem.nodeId,
      message: problem.message,
      for: problem.field?.startsWith("settings.") || problem.field === "settings" || /secret/i.test(problem.message) ? ("person" as const) : ("model" as const),
    }));
}

/**
 * A plan step that names what it needs (a capability) and a tool node that
 * does not provide it: the registry's answer, the tools that do, goes back to
 * the model. Grounds the choice of tools in the catalog's capabilities rather
 * than in tool names the model guessed at.
 */
export function planProblems(draft: Draft, tools: readonly CatalogTool[]): DraftProblem[] {
  const toolsByName = new Map(tools.map((tool) => [tool.name, tool]));
  const nodesById = new Map(draft.nodes.map((node) => [node.id, node]));
  const problems: DraftProblem[] = [];
  draft.plan.forEach((step, index) => {
    for (const nodeId of step.nodeIds) {
      if (!nodesById.has(nodeId)) problems.push({ path: `plan[${index}].nodeIds`, nodeId: null, message: `no node "${nodeId}" in the draft`, for: "model" });
    }
    if (!step.capability) return;
    const toolNodes = step.nodeIds.map((id) => nodesById.get(id)).filter((node): node is DraftToolStep => node?.kind === "tool");
    if (toolNodes.length === 0) return;
    const provides = toolNodes.some((node) => {
      const tool = toolsByName.get(node.tool);
      const operation = tool?.operations.find((each) => each.name === node.operation);
      return (operation?.capabilities ?? tool?.capabilities ?? []).includes(step.capability!);
    });
    if (!provides) {
      const offering = tools.filter((tool) => tool.capabilities.includes(step.capability!)).map((tool) => tool.name);
      problems.push({
        path: `plan[${index}].capability`,
        nodeId: toolNodes[0]!.id,
        message: `the step needs ${step.capability}, which its tool does not do; ${offering.length > 0 ? `the tools that do: ${offering.join(", ")}` : "no tool of the catalog does"}`,
        for: "model",
      });
    }
  });
  return problems;
}
