// The Architect's quality bench, as functions (bench/architect.bench.ts prints them; tests/bench/architect-bench.test.ts
// proves them with the scripted model): each goal drafted, then checked for what it must hold.
import type { LanguageModel } from "ai";
import { draftWorkflow, type ArchitectEvent } from "../lib/architect/architect";
import type { DraftVocabulary } from "../lib/architect/draft-schema";
import type { WorkflowProblem } from "../lib/contracts/workflow-problem";
import type { WorkflowDefinitionInput } from "../lib/workflow/definition";
import type { BenchGoal } from "./architect-goals";

export interface GoalOutcome {
  goal: string;
  /** Sound (no problem the model should have fixed) at the first answer. */
  validFirst: boolean;
  /** Sound after the repair rounds. */
  validAfterRepair: boolean;
  rounds: number;
  /** The provider's error, when the drafting failed. */
  failed: string | null;
  holds: { trigger: boolean; tools: boolean; changes: boolean };
  tokens: number;
  seconds: number;
}

export interface BenchOptions {
  vocabulary: DraftVocabulary;
  validate: (definition: WorkflowDefinitionInput) => Promise<WorkflowProblem[]>;
  /** The model for a goal (the scripted one answers per goal; a real one is the same for all). */
  modelFor: (goal: BenchGoal) => LanguageModel;
}

/** What a sound draft of `goal` must hold, checked on the workflow it makes. */
function holdsOf(goal: BenchGoal, definition: WorkflowDefinitionInput | null, vocabulary: DraftVocabulary): GoalOutcome["holds"] {
  if (!definition) return { trigger: false, tools: false, changes: false };
  const nodes = definition.nodes as { kind: string; tool?: string; operation?: string | null }[];
  const toolNodes = nodes.filter((node) => node.kind === "tool");
  const readOnly = (node: { tool?: string; operation?: string | null }) => {
    const tool = vocabulary.tools.find((each) => each.name === node.tool);
    const operation = tool?.operations.find((each) => each.name === node.operation);
    return operation?.readOnly ?? tool?.flags.readOnly ?? true;
  };
  const mode = definition.mode ?? "default";
  return {
    trigger: nodes.some((node) => node.kind === goal.requires.trigger),
    tools: goal.requires.tools.every((required) => toolNodes.some((node) => required.oneOf.includes(node.tool ?? ""))),
    changes: !goal.requires.changes || (toolNodes.some((node) => !readOnly(node)) && (mode === "default" || mode === "plan")),
  };
}

export async function runArchitectBench(goals: readonly BenchGoal[], options: BenchOptions): Promise<GoalOutcome[]> {
  const outcomes: GoalOutcome[] = [];
  for (const goal of goals) {
    const began = performance.now();
    let first: boolean | null = null;
    let last: ArchitectEvent | null = null;
    for await (const event of draftWorkflow({ goal: goal.goal, vocabulary: options.vocabulary, model: options.modelFor(goal), validate: options.validate })) {
      if (event.type === "checked" && first === null) first = event.draft !== null && event.problems.every((problem) => problem.for !== "model");
      last = event;
    }
    const done = last?.type === "done" ? last : null;
    const valid = done !== null && done.draft !== null && done.problems.every((problem) => problem.for !== "model");
    outcomes.push({
      goal: goal.goal,
      validFirst: first === true,
      validAfterRepair: valid,
      rounds: done?.rounds ?? 0,
      failed: last?.type === "failed" ? last.error : null,
      holds: holdsOf(goal, valid ? done!.definition : null, options.vocabulary),
      tokens: last && (last.type === "done" || last.type === "failed") ? last.usage.inputTokens + last.usage.outputTokens : 0,
      seconds: (performance.now() - began) / 1000,
    });
  }
  return outcomes;
}

/** The figures, as the bench prints them. */
export function summarize(outcomes: readonly GoalOutcome[]): string[] {
  const share = (count: number) => `${count}/${outcomes.length} (${Math.round((100 * count) / Math.max(1, outcomes.length))} %)`;
  const count = (test: (outcome: GoalOutcome) => boolean) => outcomes.filter(test).length;
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
  return [
    `goals: ${outcomes.length}`,
    `valid at the first try: ${share(count((outcome) => outcome.validFirst))}`,
    `valid after repair:     ${share(count((outcome) => outcome.validAfterRepair))}`,
    `holds its trigger:      ${share(count((outcome) => outcome.holds.trigger))}`,
    `holds its tools:        ${share(count((outcome) => outcome.holds.tools))}`,
    `asks before changes:    ${share(count((outcome) => outcome.holds.changes))}`,
    `failed (provider):      ${count((outcome) => outcome.failed !== null)}`,
    `per goal: ${mean(outcomes.map((outcome) => outcome.tokens)).toFixed(0)} tokens, ${mean(outcomes.map((outcome) => outcome.seconds)).toFixed(2)} s, ${mean(outcomes.map((outcome) => outcome.rounds)).toFixed(2)} rounds`,
  ];
}

/** Arguments the scripted answers bind per tool: enough for the studio's validator. */
const SCRIPTED_ARGUMENTS: Record<string, { operation: string | null; arguments: Record<string, unknown> }> = {
  list_dir: { operation: null, arguments: { path: "." } },
  read_file: { operation: null, arguments: { path: "notes.md" } },
  write_file: { operation: null, arguments: { path: "out.txt", content: "scripted" } },
  apply_edit: { operation: null, arguments: { path: "README.md", edits: [{ oldText: "colour", newText: "color" }] } },
  search: { operation: null, arguments: { pattern: "TODO" } },
  data: { operation: null, arguments: { path: "data.csv" } },
  http: { operation: null, arguments: { url: "https://example.com/" } },
  browse: { operation: null, arguments: { url: "https://example.com/" } },
  run_command: { operation: "run", arguments: { command: "echo done" } },
  sql: { operation: "query", arguments: { dsn: "${SHOP_DB}", sql: "SELECT 1" } },
  web_search: { operation: null, arguments: { query: "neurosurfer", api_key: "${SEARCH_KEY}" } },
};

/**
 * The answer the scripted model gives for `goal`: a draft holding exactly
 * what the goal requires (its trigger, the first of each tool choice), in
 * the schema's shape. Proves the harness, not the model.
 */
export function scriptedAnswer(goal: BenchGoal): string {
  const trigger = goal.requires.trigger === "schedule" ? { id: "start", kind: "schedule", form: "cron", cron: "0 7 * * *", timezone: "UTC" } : { id: "start", kind: "input", fields: [{ name: "text", type: "string", required: false }] };
  const steps = goal.requires.tools.map((required, index) => {
    const name = required.oneOf[0]!;
    const scripted = SCRIPTED_ARGUMENTS[name] ?? { operation: null, arguments: {} };
    return { id: `step${index + 1}`, kind: "tool", tool: name, operation: scripted.operation, arguments: scripted.arguments };
  });
  const ids = ["start", ...steps.map((step) => step.id)];
  return JSON.stringify({
    name: goal.goal.slice(0, 60),
    description: goal.goal,
    mode: "default",
    plan: steps.map((step) => ({ step: `Use ${step.tool}`, reason: "Scripted.", nodeIds: [step.id] })),
    nodes: [trigger, ...steps],
    edges: ids.slice(1).map((to, index) => ({ from: ids[index]!, to })),
    declined: [],
  });
}
