import type { Prisma } from "./generated/sqlite/client";
/**
 * Approvals as the inbox and a run's page list them: each named by its
 * workflow, its step and, for a called run's, the run and step that called it.
 */
import type { ApprovalDetail } from "@/lib/contracts/approval";
import { policyInForce, policyOfNode, type ApprovalPolicy } from "@/lib/contracts/approval-policy";
import { CHILD_RUN_KINDS } from "@/lib/contracts/run";
import { WorkflowDefinitionSchema, type WorkflowDefinition } from "@/lib/workflow/definition";
import type { ApprovalStatus, RunStatus } from "@/lib/workflow/run-types";
import { getDatabase, type StudioDatabase } from "./database";
import { NotFoundError } from "./errors";
import { NOTIFICATION_FIELDS, notificationView, notifiedNames } from "./notification-views";
import { storedLoop, toApprovalRecord } from "./run-records";

export async function listApprovals(
  filter: { status?: ApprovalStatus; runId?: string; limit?: number; workflows?: Prisma.WorkflowWhereInput | null } = {},
  database: StudioDatabase = getDatabase(),
): Promise<ApprovalDetail[]> {
  const rows = await database.approval.findMany({
    where: {
      ...(filter.status ? { status: filter.status } : {}),
      ...(filter.runId ? { runId: filter.runId } : {}),
      ...(filter.workflows ? { run: { workflow: filter.workflows } } : {}),
    },
    orderBy: { createdAt: filter.status === "pending" ? "asc" : "desc" },
    take: Math.min(filter.limit ?? 200, 1000),
    include: {
      run: { include: { workflow: { select: { name: true } }, version: { select: { definition: true } } } },
      votes: { orderBy: { createdAt: "asc" } },
      notifications: { where: { status: { in: ["pending", "sent", "failed"] } }, orderBy: { createdAt: "asc" }, select: NOTIFICATION_FIELDS },
    },
  });
  const told = await notifiedNames(rows.flatMap((row) => row.notifications), database);
  const definitions = new Map<string, WorkflowDefinition>();
  const definitionOf = (versionId: string, json: string) => {
    let definition = definitions.get(versionId);
    if (!definition) {
      definition = WorkflowDefinitionSchema.parse(JSON.parse(json));
      definitions.set(versionId, definition);
    }
    return definition;
  };
  // The runs that called sub-workflows' runs, read once for all their approvals.
  const calledRun = (run: { sourceKind: string | null; sourceRunId: string | null }) => (CHILD_RUN_KINDS as readonly (string | null)[]).includes(run.sourceKind) && run.sourceRunId !== null;
  const callerIds = [...new Set(rows.flatMap((row) => (calledRun(row.run) ? [row.run.sourceRunId!] : [])))];
  const callers = new Map(
    callerIds.length === 0
      ? []
      : (
          await database.run.findMany({
            where: { id: { in: callerIds } },
            select: { id: true, workflowId: true, versionId: true, workflow: { select: { name: true } }, version: { select: { definition: true } } },
          })
        ).map((caller) => [caller.id, caller]),
  );
  return rows.map((row) => {
    const definition = definitionOf(row.run.versionId, row.run.version.definition);
    const node = definition.nodes.find((each) => each.id === row.nodeId);
    const caller = calledRun(row.run) ? callers.get(row.run.sourceRunId!) : undefined;
    const loop = row.run.sourceKind === "for-each" ? storedLoop(row.run.loop) : null;
    const callingNode = caller && row.run.sourceNodeId ? definitionOf(caller.versionId, caller.version.definition).nodes.find((each) => each.id === row.run.sourceNodeId) : undefined;
    return {
      ...toApprovalRecord(row),
      workflowId: row.run.workflowId,
      workflowName: row.run.workflow.name,
      calledBy: caller
        ? {
            runId: caller.id,
            workflowId: caller.workflowId,
            workflowName: caller.workflow.name,
            nodeId: row.run.sourceNodeId ?? "",
            nodeLabel: callingNode?.label ?? row.run.sourceNodeId ?? "",
            item: loop ? { index: loop.index, count: loop.count } : null,
          }
        : null,
      nodeLabel: node?.label ?? (node?.kind === "tool" ? node.tool : row.nodeId === "__run__" ? "Plan" : row.nodeId),
      runStatus: row.run.status as RunStatus,
      ...inForce(policyOfNode(row.kind, node, definition.approvals), row.createdAt, row.escalatedAt),
      votes: row.votes.map((vote) => ({ personId: vote.personId, name: vote.name, approve: vote.approve, feedback: vote.feedback, at: vote.createdAt.toISOString() })),
      startedById: row.run.startedById,
      notifications: row.notifications.map((notification) => notificationView(notification, told)),
    };
  });
}

export async function getApprovalDetail(id: string, database: StudioDatabase = getDatabase()): Promise<ApprovalDetail> {
  const row = await database.approval.findUnique({ where: { id }, select: { runId: true } });
  if (!row) throw new NotFoundError("approval", id);
  const [detail] = (await listApprovals({ runId: row.runId, limit: 1000 }, database)).filter((each) => each.id === id);
  if (!detail) throw new NotFoundError("approval", id);
  return detail;
}

/** The policy as it stands (the escalation's approvers once escalated) and when it runs out. */
function inForce(policy: ApprovalPolicy, createdAt: Date, escalatedAt: Date | null): Pick<ApprovalDetail, "policy" | "dueAt" | "escalatedAt"> {
  const escalated = escalatedAt?.toISOString() ?? null;
  const now = policyInForce(policy, createdAt.toISOString(), escalated);
  return { policy: now.policy, dueAt: now.dueAt, escalatedAt: escalated };
}
