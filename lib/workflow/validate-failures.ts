import { ON_ERROR_CHOICES, type RetryPolicy } from "@/lib/contracts/execution-settings";
import { ERROR_WORKFLOW_INPUTS } from "@/lib/contracts/run-trigger";
import { executionOf, handlesFailures, nodeKindDefinitions } from "@/nodes/definitions";
import type { CalledVersion } from "./child-runs";
import type { InputField, WorkflowDefinition } from "./definition";
import { isErrorEdge, type WorkflowGraph } from "./scheduler";

/** Other workflows, as the error workflow and Sub-workflow checks need them. */
export interface WorkflowLookup {
  /** The id of the workflow being checked, when it has one (a saved workflow): it cannot be its own error workflow, nor call itself. */
  selfId: string | null;
  /** The workflow `id` as its error workflow would run it (its published version, else its latest), or null when there is none. */
  find: (id: string) => Promise<{ name: string; inputFields: readonly InputField[] } | null>;
  /** The version of workflow `id` a Sub-workflow step calls; absent: Sub-workflow steps' callees are not checked. */
  findCallable?: (id: string, version: CalledVersion) => Promise<CallableWorkflow | "no-workflow" | "no-version">;
}

/** A saved version a Sub-workflow step would call. */
export interface CallableWorkflow {
  name: string;
  version: number;
  /** Asked for its published version, but none is published: its newest saved version stands in (as for an error workflow). */
  unpublished: boolean;
  definition: WorkflowDefinition;
}

type Report = (nodeId: string | null, field: string | null, message: string) => void;

const FOLLOW_ERROR_PATH = `“${ON_ERROR_CHOICES["error-edge"].label}”`;

/**
 * What can be wrong with how a workflow handles failures, each on its field:
 * an error path with no error edge, an error edge out of a node that does not
 * follow one, a retry whose longest wait is shorter than its first, and an
 * error workflow that does not exist, is this workflow, or asks for inputs it
 * would not be given.
 */
export async function checkFailureHandling(definition: WorkflowDefinition, graph: WorkflowGraph, error: Report, workflows?: WorkflowLookup): Promise<void> {
  const nodes = new Map(definition.nodes.map((node) => [node.id, node]));
  checkRetry(definition.execution?.retry, null, "execution.retry", error);
  for (const node of definition.nodes) {
    const execution = executionOf(node);
    checkRetry(execution?.retry, node.id, "execution.retry", error);
    if (execution?.onError === "error-edge" && !(graph.outgoing.get(node.id) ?? []).some(isErrorEdge)) {
      error(
        node.id,
        "execution.onError",
        `${FOLLOW_ERROR_PATH} needs an error path: connect this node's red error handle to the step that handles the failure, or choose another action.`,
      );
    }
  }
  definition.edges.forEach((edge, index) => {
    if (!isErrorEdge(edge)) return;
    const source = nodes.get(edge.source);
    if (!source) return;
    if (!handlesFailures(source.kind)) {
      error(source.id, `edges[${index}].sourceHandle`, `${nodeKindDefinitions[source.kind].title} nodes have no error handle; connect from their output instead.`);
    } else if (executionOf(source)?.onError !== "error-edge") {
      error(
        source.id,
        `edges[${index}].sourceHandle`,
        `This edge leaves from the error handle, but the node does not follow its error path: choose ${FOLLOW_ERROR_PATH} under On failure, or remove the edge.`,
      );
    }
  });
  if (definition.errorWorkflowId !== undefined && workflows) await checkErrorWorkflow(definition.errorWorkflowId, workflows, error);
}

function checkRetry(retry: RetryPolicy | undefined, nodeId: string | null, field: string, error: Report): void {
  if (retry?.maxDelayMs !== undefined && retry.maxDelayMs < retry.initialDelayMs) {
    error(nodeId, `${field}.maxDelayMs`, `The longest wait (${retry.maxDelayMs} ms) is shorter than the first (${retry.initialDelayMs} ms); raise it, or leave it empty.`);
  }
}

async function checkErrorWorkflow(id: string, workflows: WorkflowLookup, error: Report): Promise<void> {
  if (id === workflows.selfId) {
    error(null, "errorWorkflowId", "A workflow cannot be its own error workflow: choose another workflow to run when this one fails, or none.");
    return;
  }
  const found = await workflows.find(id);
  if (!found) {
    error(null, "errorWorkflowId", `There is no workflow with id "${id}" (it may have been deleted): choose another error workflow, or none.`);
    return;
  }
  const given = new Set<string>(ERROR_WORKFLOW_INPUTS);
  for (const field of found.inputFields) {
    if (given.has(field.name) || !field.required || field.default !== undefined) continue;
    error(
      null,
      "errorWorkflowId",
      `The error workflow “${found.name}” asks for the run input “${field.name}”, which a failure does not give (it gives ${ERROR_WORKFLOW_INPUTS.join(", ")}): give that field a default, make it optional, or choose another workflow.`,
    );
  }
}
