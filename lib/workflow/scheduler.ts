import type { WorkflowDefinition, WorkflowEdge } from "./definition";

/** Where one node of a run stands. `waiting` = waiting for a person. */
import type { NodeStatus } from "@/lib/contracts/run-status";

export type { NodeStatus };

const SETTLED: ReadonlySet<NodeStatus> = new Set(["succeeded", "failed", "skipped"]);
const ACTIVE: ReadonlySet<NodeStatus> = new Set(["running", "waiting"]);

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

/** What the scheduler knows of a run: each node's status, and each finished router's chosen route. */
export interface RunState {
  statuses: Readonly<Record<string, NodeStatus>>;
  routes: Readonly<Record<string, string>>;
}

/** What to do next. */
export interface SchedulerDecision {
  /** Nodes whose inputs are settled and at least one incoming edge is live: start them. */
  start: string[];
  /** Nodes no live edge can reach any more: mark them skipped. */
  skip: string[];
  /** Nothing is pending or active: the run is over. */
  finished: boolean;
  /** A node failed and the workflow stops at the first failure. */
  failed: boolean;
}

/**
 * Decides what runs next. Pure: no I/O, no clock. A node starts when every
 * node feeding it has settled and at least one feeding edge is live (its
 * source succeeded and, for a router, the edge follows the chosen route); it
 * is skipped when all feeding edges are dead. Skips cascade within one call.
 * With `onError: "stop"`, a failure starts nothing new.
 *
 * @example
 *   nextSteps(graph, { statuses: { in: "succeeded", a: "pending" }, routes: {} }, "stop").start // ["a"]
 */
export function nextSteps(graph: WorkflowGraph, state: RunState, onError: "stop" | "continue"): SchedulerDecision {
  // Decisions made in this call, over the given statuses (not a copy: runs of thousands of nodes call this per step).
  const decided = new Map<string, NodeStatus>();
  const statusOf = (id: string): NodeStatus => decided.get(id) ?? state.statuses[id] ?? "pending";
  let anyFailed = false;
  for (const id of graph.nodeIds) {
    if (state.statuses[id] === "failed") {
      anyFailed = true;
      break;
    }
  }
  const failed = anyFailed && onError === "stop";
  const start: string[] = [];
  const skip: string[] = [];

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
        if (edges.some((edge) => isLive(edge, graph, statusOf, state.routes))) {
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

function isLive(
  edge: WorkflowEdge,
  graph: WorkflowGraph,
  statusOf: (id: string) => NodeStatus,
  routes: Readonly<Record<string, string>>,
): boolean {
  if (statusOf(edge.source) !== "succeeded") return false;
  if (graph.kinds.get(edge.source) !== "router") return true;
  return edge.sourceHandle === routes[edge.source];
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
