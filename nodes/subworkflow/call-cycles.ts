import type { CalledVersion } from "@/lib/workflow/child-runs";
import type { CallableWorkflow, WorkflowLookup } from "@/lib/workflow/validate-failures";
import { PUBLISHED_VERSION, type SubWorkflowNode } from "./definition";

/** How many saved versions a cycle check reads at most: far more than any real chain of calls. */
const MAX_VERSIONS_READ = 200;

type FindCallable = NonNullable<WorkflowLookup["findCallable"]>;

interface Call {
  id: string;
  version: CalledVersion;
  callee: CallableWorkflow;
}

/**
 * Whether a call from the workflow `selfId` (named `selfName`) loops: the
 * called workflow, through the versions its own Sub-workflow steps would call
 * (read as saved, to any depth), calls `selfId` again, or enters a loop of
 * its own. The message to show on the step's field, or null when it does not.
 * A draft not saved yet (`selfId` null) can only enter another loop.
 */
export async function findCallCycle(selfId: string | null, selfName: string, first: Call, findCallable: FindCallable): Promise<string | null> {
  const finished = new Set<string>();
  let read = 0;
  // Depth first, with the chain of calls that led here, so the message can name it.
  const visit = async (call: Call, chain: readonly Call[]): Promise<string | null> => {
    const key = versionKey(call.id, call.callee.version);
    if (finished.has(key)) return null;
    const path = [...chain, call];
    for (const node of call.callee.definition.nodes) {
      if (node.kind !== "subworkflow" || node.workflowId === "") continue;
      if (node.workflowId === selfId) return describeLoop([selfName, ...path.map((each) => each.callee.name), selfName]);
      const again = path.findIndex((each) => each.id === node.workflowId);
      if (again >= 0) return describeLoop([selfName, ...path.map((each) => each.callee.name), path[again]!.callee.name]);
      if ((read += 1) > MAX_VERSIONS_READ) return null;
      const callee = await findCallable(node.workflowId, calledVersionOf(node));
      if (typeof callee === "string") continue;
      const found = await visit({ id: node.workflowId, version: calledVersionOf(node), callee }, path);
      if (found) return found;
    }
    finished.add(key);
    return null;
  };
  return visit(first, []);
}

function calledVersionOf(node: SubWorkflowNode): CalledVersion {
  return node.version ?? PUBLISHED_VERSION;
}

function versionKey(id: string, version: number): string {
  return `${id}@${version}`;
}

/** "This step would loop: A calls B, which calls C, which calls A. …" */
function describeLoop(names: readonly string[]): string {
  const [first, ...rest] = names;
  const calls = rest.map((name, index) => (index === 0 ? `“${first}” calls “${name}”` : `which calls “${name}”`)).join(", ");
  return `This call would loop: ${calls}. Workflows may not call themselves, directly or through others; choose another workflow, or remove a Sub-workflow step from the loop.`;
}
