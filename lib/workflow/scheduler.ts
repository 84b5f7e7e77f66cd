import { ERROR_HANDLE, type OnErrorAction } from "@/lib/contracts/execution-settings";
import type { WorkflowDefinition, WorkflowEdge } from "./definition";
import { DEFAULT_ROUTE } from "./definition";

/** Where one node of a run stands. `waiting` = waiting for a person; `retrying` = waiting for its next attempt. */
import type { NodeStatus } from "@/lib/contracts/run-status";

export type { NodeStatus };

const SETTLED: ReadonlySet<NodeStatus> = new Set(["succeeded", "failed", "skipped"]);
const ACTIVE: ReadonlySet<NodeStatus> = new Set(["running", "waiting", "retrying"]);

/** The graph of a definition, indexed once per run. */
export interface WorkflowGraph {
  /** The nodes that run as steps: every node but the tool nodes attached to agents. */
  nodeIds: readonly string[];
  kinds: ReadonlyMap<string, string>;
  incoming: ReadonlyMap<string, readonly WorkflowEdge[]>;
  outgoing: ReadonlyMap<string, readonly WorkflowEdge[]>;
  /** Agent id -> the tool nodes attached to it, in edge order. */
  attachments: ReadonlyMap<string, readonly string[]>;
  /** Attached tool node id -> the agents it is attached to. */
  attachedTo: ReadonlyMap<string, readonly string[]>;
}

/**
 * Indexes a definition. A tool node with an edge into an agent node is that
 * agent's tool, not a step: the model calls it, the scheduler never starts it,
 * and its edges neither feed nor block anything (validation refuses any other
 * edge on such a node).
 */
export function buildGraph(definition: Pick<WorkflowDefinition, "nodes" | "edges">): WorkflowGraph {
  const kinds = new Map(definition.nodes.map((node) => [node.id, node.kind]));
  const attachments = new Map<string, string[]>();
  const attachedTo = new Map<string, string[]>();
  for (const edge of definition.edges) {
    if (!isAttachmentEdge(edge, kinds)) continue;
    const tools = attachments.get(edge.target) ?? [];
    if (!tools.includes(edge.source)) tools.push(edge.source);
    attachments.set(edge.target, tools);
    const agents = attachedTo.get(edge.source) ?? [];
    if (!agents.includes(edge.target)) agents.push(edge.target);
    attachedTo.set(edge.source, agents);
  }
  const incoming = new Map<string, WorkflowEdge[]>();
  const outgoing = new Map<string, WorkflowEdge[]>();
  const nodeIds = definition.nodes.map((node) => node.id).filter((id) => !attachedTo.has(id));
  for (const id of nodeIds) {
    incoming.set(id, []);
    outgoing.set(id, []);
  }
  for (const edge of definition.edges) {
    if (attachedTo.has(edge.source) || attachedTo.has(edge.target)) continue;
    incoming.get(edge.target)?.push(edge);
    outgoing.get(edge.source)?.push(edge);
  }
  return { nodeIds, kinds, incoming, outgoing, attachments, attachedTo };
}

/** An edge from a tool node into an agent node: attaches the tool to the agent. */
export function isAttachmentEdge(edge: Pick<WorkflowEdge, "source" | "target">, kinds: ReadonlyMap<string, string>): boolean {
  return kinds.get(edge.source) === "tool" && kinds.get(edge.target) === "agent";
}

/** An edge from a node's error handle: followed only when its source failed and follows its error path. */
export function isErrorEdge(edge: Pick<WorkflowEdge, "sourceHandle">): boolean {
  return edge.sourceHandle === ERROR_HANDLE;
}

/**
 * What the scheduler knows of a run: each node's status, each finished
 * router's chosen route, and what each failed node's failure does (its
 * execution policy's `onError`; a failed node not listed stops the run).
 */
export interface RunState {
  statuses: Readonly<Record<string, NodeStatus>>;
  routes: Readonly<Record<string, string>>;
  failures?: Readonly<Record<string, OnErrorAction>>;
}

/**
 * What a failure of `nodeId` does: its `onError`, except that an error path
 * with no error edge to follow stops the run (validation says so beforehand).
 */
export function failureAction(graph: WorkflowGraph, nodeId: string, onError: OnErrorAction): OnErrorAction {
  if (onError !== "error-edge") return onError;
  return (graph.outgoing.get(nodeId) ?? []).some(isErrorEdge) ? "error-edge" : "stop";
}

/** What to do next. */
export interface SchedulerDecision {
  /** Nodes whose inputs are settled and at least one incoming edge is live: start them. */
  start: string[];
  /** Nodes no live edge can reach any more: mark them skipped. */
  skip: string[];
  /** Nothing is pending or active: the run is over. */
  finished: boolean;
  /** A node failed and its failure stops the run. */
  failed: boolean;
}

/**
 * Decides what runs next. Pure: no I/O, no clock. A node starts when every
 * node feeding it has settled and at least one feeding edge is live; it is
 * skipped when all feeding edges are dead. Skips cascade within one call.
 *
 * An edge is live when its source succeeded (and, out of a router, the edge
 * follows the chosen route), or its source failed and handles the failure:
 * `continue` keeps its normal edges live (a router's default route), an
 * error path (`error-edge`) makes only its error edges live. A failure that
 * stops the run starts nothing new.
 *
 * @example
 *   nextSteps(graph, { statuses: { in: "succeeded", a: "pending" }, routes: {} }).start // ["a"]
 */
export function nextSteps(graph: WorkflowGraph, state: RunState): SchedulerDecision {
  // Decisions made in this call, over the given statuses (not a copy: runs of thousands of nodes call this per step).
  const decided = new Map<string, NodeStatus>();
  const statusOf = (id: string): NodeStatus => decided.get(id) ?? state.statuses[id] ?? "pending";
  const actionOf = (id: string): OnErrorAction => state.failures?.[id] ?? "stop";
  let failed = false;
  for (const id of graph.nodeIds) {
    if (state.statuses[id] === "failed" && actionOf(id) === "stop") {
      failed = true;
      break;
    }
  }
  const start: string[] = [];
  const skip: string[] = [];
  const isLive = (edge: WorkflowEdge): boolean => {
    const status = statusOf(edge.source);
    if (isErrorEdge(edge)) return status === "failed" && actionOf(edge.source) === "error-edge";
    const router = graph.kinds.get(edge.source) === "router";
    if (status === "succeeded") return !router || edge.sourceHandle === state.routes[edge.source];
    if (status === "failed" && actionOf(edge.source) === "continue") return !router || edge.sourceHandle === DEFAULT_ROUTE;
    return false;
  };

  if (!failed) {
    // Skips can make further nodes decidable, so repeat until nothing changes.
    for (let changed = true; changed; ) {
      changed = false;
      for (const id of graph.nodeIds) {
        if (statusOf(id) !== "pending") continue;
        const edges = graph.incoming.get(id) ?? [];
        if (edges.length === 0) {
          start.push(id);
          decided.set(id, "running");
          continue;
        }
        if (!edges.every((edge) => SETTLED.has(statusOf(edge.source)))) continue;
        if (edges.some(isLive)) {
          start.push(id);
          decided.set(id, "running");
        } else {
          skip.push(id);
          decided.set(id, "skipped");
          changed = true;
        }
      }
    }
  }

  let anyActive = false;
  let anyPending = false;
  for (const id of graph.nodeIds) {
    const status = statusOf(id);
    if (ACTIVE.has(status)) anyActive = true;
    else if (status === "pending") anyPending = true;
  }
  const finished = failed ? !anyActive && start.length === 0 : !anyActive && !anyPending;
  return { start, skip, finished, failed };
}

/** Every node id upstream of `nodeId` (its transitive sources). */
export function upstreamOf(graph: WorkflowGraph, nodeId: string): Set<string> {
  const seen = new Set<string>();
  const stack = [nodeId];
  while (stack.length > 0) {
    const current = stack.pop()!;
    for (const edge of graph.incoming.get(current) ?? []) {
      if (!seen.has(edge.source)) {
        seen.add(edge.source);
        stack.push(edge.source);
      }
    }
  }
  return seen;
}

/** Node ids that sit on a cycle. Empty for a valid workflow. */
export function nodesOnCycles(graph: WorkflowGraph): string[] {
  // Kahn's algorithm: whatever cannot be peeled off in topological order is on or behind a cycle;
  // of those, keep the ones that can reach themselves.
  const remaining = new Map(graph.nodeIds.map((id) => [id, (graph.incoming.get(id) ?? []).length]));
  const queue = graph.nodeIds.filter((id) => remaining.get(id) === 0);
  while (queue.length > 0) {
    const id = queue.pop()!;
    remaining.delete(id);
    for (const edge of graph.outgoing.get(id) ?? []) {
      const count = remaining.get(edge.target);
      if (count === undefined) continue;
      remaining.set(edge.target, count - 1);
      if (count - 1 === 0) queue.push(edge.target);
    }
  }
  return [...remaining.keys()].filter((id) => upstreamOf(graph, id).has(id));
}

/** Nodes reachable from `starts` along edges. */
export function reachableFrom(graph: WorkflowGraph, starts: Iterable<string>): Set<string> {
  const seen = new Set<string>(starts);
  const stack = [...seen];
  while (stack.length > 0) {
    const current = stack.pop()!;
    for (const edge of graph.outgoing.get(current) ?? []) {
      if (!seen.has(edge.target)) {
        seen.add(edge.target);
        stack.push(edge.target);
      }
    }
  }
  return seen;
}
