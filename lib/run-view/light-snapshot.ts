import type { RunDetail } from "@/lib/contracts/run";
import type { RunEvent } from "@/lib/contracts/run-event";

/**
 * From this many steps a run's page leaves the steps' arguments and outputs out of its HTML: they were most of a big
 * run's page (a 2,000-step run's), while its panel shows one step's at a time and fetches it when its node is opened.
 */
export const LIGHT_FROM_STEPS = 200;

/** Whether a run's page should be light (see LIGHT_FROM_STEPS). */
export function isBigRun(run: Pick<RunDetail, "steps">): boolean {
  return run.steps.length >= LIGHT_FROM_STEPS;
}

/**
 * The run without its steps' arguments and outputs; a For each step's arguments stay (`{ list, count, concurrency }`:
 * small, and they say how many items it goes through).
 */
export function withoutStepResults(run: RunDetail): RunDetail {
  const loops = new Set(run.definition.nodes.filter((node) => node.kind === "foreach").map((node) => node.id));
  return { ...run, steps: run.steps.map((step) => ({ ...step, input: loops.has(step.nodeId) ? step.input : undefined, output: null })) };
}

/** What stands for a step's output in a light page's events: the page reads outputs from the step's record, never from here. */
const OUTPUT_LEFT_OUT = { content: "" };

/** The timeline's events without the outputs they carry (a step's success carries its whole output). */
export function withoutEventOutputs(events: readonly RunEvent[]): RunEvent[] {
  return events.map((event) => (event.type === "node-succeeded" ? { ...event, payload: { ...event.payload, output: OUTPUT_LEFT_OUT } } : event));
}
