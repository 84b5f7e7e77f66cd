import type { StepOutput } from "@/lib/contracts/run";
import type { TestRunSource } from "@/lib/contracts/test-run";
import { startsRunsOf } from "@/nodes/definitions";
import type { CarriedStep } from "./carry-over";
import type { WorkflowDefinition } from "./definition";
import { buildGraph } from "./scheduler";

/** Run this step (the node alone, what it reads kept) or Run up to here (the paths that lead to it). */
export type TestRunMode = "step" | "up-to";

/** A step output some run of the workflow produced: the newest that run has for that node. */
export interface RunOutput {
  runId: string;
  output: StepOutput;
  input: unknown;
  attempt: number;
  startedAt: string | null;
  finishedAt: string | null;
}

/** What a test run may keep instead of running a node, by node id. */
export interface TestRunSources {
  pins: ReadonlyMap<string, { output: StepOutput; fromRunId: string | null }>;
  /** The newest output of each node in the workflow's runs (Run this step keeps them; Run up to here runs the path instead). */
  lastRun: ReadonlyMap<string, RunOutput>;
  /** Values typed for the occasion, for nodes that have neither. */
  typed: ReadonlyMap<string, StepOutput>;
}


export interface TestRunPlan {
  /** The nodes that run, the tested node among them. */
  runs: string[];
  /** The nodes kept instead of run, with their outputs. */
  carried: CarriedStep[];
  /** The nodes left out: not on the way to the tested node, written skipped. */
  excluded: string[];
  /** Nodes the test needs values for and has none (no pin, no run, nothing typed): the start is refused naming them. */
  missing: string[];
  /** Each node on the way (the tested node's upstream), and where its output comes from, in the workflow's order. */
  sources: { nodeId: string; source: TestRunSource; fromRunId: string | null }[];
}

/**
 * Which nodes a test run of `nodeId` runs, keeps and leaves out. Pure.
 *
 * Run this step runs the node alone: every node upstream of it is kept, from
 * (in order) its pin, the newest run of the workflow that has its output, or
 * values typed for the occasion; a direct upstream node with none of these is
 * `missing`, an earlier one is left out. The run inputs node runs (it only
 * hands on the run's inputs). Run up to here runs every node on the paths
 * that lead to the node; a pinned node is kept instead, and the paths behind
 * it are not walked; a trigger (webhook, schedule) on the way, which a test
 * run does not start from, is kept from its pin, the last run or typed values.
 * Everything else is left out: nothing downstream of the node runs.
 *
 * @example
 *   // in → fetch → summarise, fetch pinned: Run this step on summarise
 *   planTestRun(definition, "summarise", "step", sources).runs // ["in", "summarise"]
 */
export function planTestRun(
  definition: Pick<WorkflowDefinition, "nodes" | "edges">,
  nodeId: string,
  mode: TestRunMode,
  sources: TestRunSources,
): TestRunPlan {
  const graph = buildGraph(definition);
  const kinds = new Map(definition.nodes.map((node) => [node.id, node.kind]));
  const runs = new Set<string>([nodeId]);
  const carried = new Map<string, CarriedStep>();
  const missing = new Set<string>();
  const seen = new Set<string>([nodeId]);
  const source = new Map<string, TestRunSource>();
  const direct = new Set((graph.incoming.get(nodeId) ?? []).map((edge) => edge.source));

  const keep = (id: string, allowLastRun: boolean): boolean => {
    const pin = sources.pins.get(id);
    if (pin) {
      carried.set(id, { nodeId: id, fromRunId: pin.fromRunId, as: "pin", output: pin.output, input: null, attempt: 0, startedAt: null, finishedAt: null });
      source.set(id, "pin");
      return true;
    }
    const last = allowLastRun ? sources.lastRun.get(id) : undefined;
    if (last) {
      carried.set(id, { nodeId: id, fromRunId: last.runId, output: last.output, input: last.input, attempt: last.attempt, startedAt: last.startedAt, finishedAt: last.finishedAt });
      source.set(id, "last-run");
      return true;
    }
    const typed = sources.typed.get(id);
    if (typed) {
      carried.set(id, { nodeId: id, fromRunId: null, as: "typed", output: typed, input: null, attempt: 0, startedAt: null, finishedAt: null });
      source.set(id, "typed");
      return true;
    }
    return false;
  };

  const queue = [nodeId];
  while (queue.length > 0) {
    const current = queue.shift()!;
    for (const edge of graph.incoming.get(current) ?? []) {
      const id = edge.source;
      if (seen.has(id)) continue;
      seen.add(id);
      const kind = kinds.get(id);
      const starts = kind ? startsRunsOf(kind) : null;
      if (starts === "manually") {
        runs.add(id);
        source.set(id, "runs");
        continue;
      }
      if (mode === "step") {
        if (!keep(id, true) && direct.has(id)) {
          missing.add(id);
          source.set(id, "missing");
        }
        // Walked on either way: a template may read a node further up, and what is kept of it is there to read.
        queue.push(id);
        continue;
      }
      if (sources.pins.has(id)) {
        keep(id, false);
        continue;
      }
      if (starts === "on-trigger") {
        if (!keep(id, true)) {
          missing.add(id);
          source.set(id, "missing");
        }
        continue;
      }
      runs.add(id);
      source.set(id, "runs");
      queue.push(id);
    }
  }

  const order = graph.nodeIds;
  return {
    runs: order.filter((id) => runs.has(id)),
    carried: order.flatMap((id) => (carried.has(id) ? [carried.get(id)!] : [])),
    excluded: order.filter((id) => !runs.has(id) && !carried.has(id)),
    missing: order.filter((id) => missing.has(id)),
    sources: order.flatMap((id) => {
      const each = source.get(id);
      return each ? [{ nodeId: id, source: each, fromRunId: carried.get(id)?.fromRunId ?? null }] : [];
    }),
  };
}

/** The nodes a pin can stand in for: steps (not tools attached to an agent) other than the run inputs, which a test run always runs. */
export function pinnableNodeIds(definition: Pick<WorkflowDefinition, "nodes" | "edges">): string[] {
  const kinds = new Map(definition.nodes.map((node) => [node.id, node.kind]));
  return buildGraph(definition).nodeIds.filter((id) => {
    const kind = kinds.get(id);
    return kind !== undefined && startsRunsOf(kind) !== "manually";
  });
}
