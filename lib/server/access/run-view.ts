import type { ApprovalDetail } from "@/lib/contracts/approval";
import type { RunDetail } from "@/lib/contracts/run";
import type { RunEvent } from "@/lib/contracts/run-event";
import { eventTextJson, eventTextOf, type EventText } from "@/lib/persistence/run-event-queries";
import { getDatabase, NotFoundError, type StudioDatabase } from "@/lib/persistence";
import { listApprovals } from "@/lib/persistence/run-queries";
import type { Principal } from "./principal";
import { visibleWorkflows, workflowIdsWith } from "./workflow-access";

/**
 * A run belongs to the workflow it ran: a Sub-workflow step's child run is
 * the called workflow's, the run that called it the caller's, an error
 * workflow's run the error workflow's. Whoever may not read that workflow's
 * runs gets such a run as a 404 by its id (lib/server/access/authorize.ts),
 * so what links to it from a run they do read (its id, its workflow's name)
 * is left out here, not shown: the caller's run keeps its step's output, and
 * says nothing of a run its reader may not open. Items of a For each step
 * are runs of the same workflow, and stay.
 */

type Linked = { workflowId: string } | null;

async function linkFilter(principal: Principal, database: StudioDatabase): Promise<(link: Linked) => boolean> {
  const readable = await workflowIdsWith(principal, "run:read", database);
  return (link) => link !== null && (readable === null || readable.has(link.workflowId));
}

/**
 * The run as `principal` may see it: links to runs of workflows whose runs they may not read left out, and a
 * Sub-workflow step's record of the run it started (its input) saying HIDDEN_CHILD_RUN in their place.
 */
export async function runAsSeenBy(principal: Principal, run: RunDetail, database: StudioDatabase = getDatabase()): Promise<RunDetail> {
  const sees = await linkFilter(principal, database);
  const calls = new Set(run.definition.nodes.filter((node) => node.kind === "subworkflow").map((node) => node.id));
  const started = (input: unknown): input is { workflowId: string } =>
    typeof input === "object" && input !== null && typeof (input as { workflowId?: unknown }).workflowId === "string";
  return {
    ...run,
    steps: run.steps.map((step) =>
      calls.has(step.nodeId) && started(step.input) && !sees(step.input) ? { ...step, input: { ...step.input, ...HIDDEN_CHILD_RUN } } : step,
    ),
    childRuns: run.childRuns.filter(sees),
    sourceRun: sees(run.sourceRun) ? run.sourceRun : null,
    errorWorkflowRun: sees(run.errorWorkflowRun) ? run.errorWorkflowRun : null,
  };
}

/** Approvals as `principal` may see them: the run that called a child run's, named only to who may read the caller's runs. */
export async function approvalsAsSeenBy(principal: Principal, approvals: ApprovalDetail[], database: StudioDatabase = getDatabase()): Promise<ApprovalDetail[]> {
  if (!approvals.some((approval) => approval.calledBy !== null)) return approvals;
  const sees = await linkFilter(principal, database);
  return approvals.map((approval) => (approval.calledBy === null || sees(approval.calledBy) ? approval : { ...approval, calledBy: null }));
}

/** What a run's events say of a child run its reader may not open, in place of its id and its workflow's id and name. */
export const HIDDEN_CHILD_RUN = { runId: "", workflowId: "", workflowName: "a workflow you may not open" } as const;

export interface EventRedaction {
  live(event: RunEvent): RunEvent;
  stored(event: EventText): EventText;
}

/**
 * A run's events as `principal` may read them: a step's `child-run-started`
 * names the child run and its workflow, and for a workflow whose runs they
 * may not read both are replaced (HIDDEN_CHILD_RUN); the step still shows it
 * waits. Null (nothing to change, no cost per event) for whoever reads every
 * workflow's runs; otherwise one query, when the stream starts.
 */
export async function eventRedaction(principal: Principal, database: StudioDatabase = getDatabase()): Promise<EventRedaction | null> {
  const readable = await workflowIdsWith(principal, "run:read", database);
  return readable === null ? null : childRunRedaction(readable);
}

/** The redaction for a reader of the runs of the `readable` workflows only. */
export function childRunRedaction(readable: ReadonlySet<string>): EventRedaction {
  const live = (event: RunEvent): RunEvent =>
    event.type === "child-run-started" && !readable.has(event.payload.workflowId) ? { ...event, payload: { ...event.payload, ...HIDDEN_CHILD_RUN } } : event;
  return {
    live,
    stored: (event) => {
      if (event.type !== "child-run-started") return event;
      const parsed = JSON.parse(eventTextJson(event)) as RunEvent;
      const shown = live(parsed);
      return shown === parsed ? event : eventTextOf(event.seq, event.type, JSON.stringify(shown));
    },
  };
}

/** The approvals matching `filter` of the workflows `principal` may see, as they may see them (the inbox, GET /api/approvals). */
export async function listApprovalsFor(
  principal: Principal,
  filter: Omit<NonNullable<Parameters<typeof listApprovals>[0]>, "workflows">,
  database: StudioDatabase = getDatabase(),
): Promise<ApprovalDetail[]> {
  return approvalsAsSeenBy(principal, await listApprovals({ ...filter, workflows: visibleWorkflows(principal) }, database), database);
}

/**
 * An object found by an id in a body or a path under workflow `workflowId`
 * (a run to pin from, say) must be that workflow's: another's is the same 404
 * as one that does not exist, whoever asks, so a workflow's path never opens
 * another workflow's objects, nor says that an id exists elsewhere.
 */
export function requireOfWorkflow<Found extends { workflowId: string }>(workflowId: string, found: Found, kind: string, id: string): Found {
  if (found.workflowId !== workflowId) throw new NotFoundError(kind, id);
  return found;
}
