/**
 * What a node's executor (nodes/<kind>/server.ts) may use of its run and of
 * the engine: the run's inputs and scope, tools, secrets, grants, and
 * callbacks that wait, emit and log for this node only.
 */
import { policyFor } from "@/lib/contracts/approval-policy";
import { grantExpiry } from "@/lib/contracts/grants";
import { secretsOfWorkflow } from "@/lib/tools/secrets";
import type { NodeExecutionContext } from "@/nodes/node-kind-server";
import type { WorkflowNode } from "../definition";
import type { ActiveRun } from "./active-run";
import type { EngineContext } from "./engine-context";
import { emit, type PendingEvent } from "./run-events";
import { upstreamOf } from "../scheduler";
import { awaitApproval, awaitChildRun } from "./step-waits";

/** What an executor may use of the run and the engine; each callback acts for this node only. */
export function executionContext(engine: EngineContext, run: ActiveRun, node: WorkflowNode, signal: AbortSignal): NodeExecutionContext {
  let upstream: ReadonlySet<string> | null = null;
  const upstreamOfNode = () => (upstream ??= upstreamOf(run.graph, node.id));
  return {
    runId: run.runId,
    workflowId: run.workflowId,
    inputs: run.inputs,
    trigger: run.trigger,
    triggerPayload: run.triggerPayload,
    scope: () => run.scope(),
    readsFrom: (nodeId) => !run.nodes.has(nodeId) || upstreamOfNode().has(nodeId),
    store: engine.options.store,
    pool: () => engine.options.pool(),
    // Bound to this run's workflow: a secret limited to other workflows is refused to its steps.
    secrets: secretsOfWorkflow(engine.options.secrets, run.workflowId),
    workingDirectory: engine.workingDirectory,
    mode: run.definition.mode,
    guardrails: run.definition.guardrails,
    planApproved: run.planApproved,
    grants: run.grants,
    // The grant lasts as long as the policy of the node's writes says.
    persistGrant: (grant) => {
      const policy = policyFor("write", "approvals" in node ? node.approvals : undefined, run.definition.approvals);
      return engine.options.store.addGrant(run.workflowId, grant, { runId: run.runId, nodeId: node.id, expiresAt: grantExpiry(new Date(), policy.alwaysAllowDays) });
    },
    lock: run.lock,
    signal,
    cancelled: () => run.cancelled,
    waitFor: (request) => awaitApproval(engine, run, request),
    attempt: run.attempts[node.id] ?? 1,
    ...(engine.options.childRuns ? { childRuns: engine.options.childRuns } : {}),
    waitForChildRun: (childRunId) => awaitChildRun(engine, run, node.id, childRunId),
    emit: (type, payload) => emit(engine, run, [{ type, nodeId: node.id, payload } as PendingEvent]),
    log: (message, error) => engine.options.log?.(message, error),
    attachedTools: () =>
      (run.graph.attachments.get(node.id) ?? []).flatMap((id) => {
        const each = run.nodes.get(id);
        return each?.kind === "tool" ? [each] : [];
      }),
    ...(engine.options.agentModel ? { agentModel: engine.options.agentModel } : {}),
  };
}
