// The Architect's quality figure (issue 33): the goals of bench/architect-goals.ts drafted against a model, and what
// came out: valid at the first try, valid after repair, the share of drafts holding each required part (trigger, tools,
// a person's approval before changes), tokens and seconds per goal. Prints, never asserts.
//
//   npx tsx bench/architect.bench.ts                       the scripted model (proves the harness; CI runs it as a test)
//   ARCHITECT_BENCH_MODEL=openai:gpt-4.1-mini ARCHITECT_BENCH_API_KEY=sk-… npx tsx bench/architect.bench.ts
//   ARCHITECT_BENCH_MODEL=openai_compatible:llama3.1@http://127.0.0.1:11434/v1 npx tsx bench/architect.bench.ts
import type { LanguageModel } from "ai";
import { AgentProviderSchema } from "../nodes/agent/definition";
import { catalogEntry } from "../lib/server/tool-catalog";
import { allTools, secretsFromRecord, ToolPool } from "../lib/tools";
import { createAgentModel } from "../lib/workflow/agent/agent-model";
import { scriptedModel } from "../lib/workflow/agent/test-support";
import { validateWorkflow } from "../lib/workflow/validate";
import { ARCHITECT_GOALS, type BenchGoal } from "./architect-goals";
import { runArchitectBench, scriptedAnswer, summarize } from "./architect-harness";

/** `provider:model[@baseUrl]` → the model; unset → null (the scripted model). */
function configuredModel(): LanguageModel | null {
  const setting = process.env.ARCHITECT_BENCH_MODEL?.trim();
  if (!setting) return null;
  const match = /^([a-z_]+):([^@]+)(?:@(.+))?$/.exec(setting);
  const provider = AgentProviderSchema.safeParse(match?.[1]);
  if (!match || !provider.success) throw new Error(`ARCHITECT_BENCH_MODEL: expected provider:model[@baseUrl] (openai, anthropic or openai_compatible), got "${setting}"`);
  return createAgentModel({ provider: provider.data, model: match[2]!, baseUrl: match[3] }, process.env.ARCHITECT_BENCH_API_KEY);
}

async function main(): Promise<void> {
  const pool = new ToolPool(allTools());
  const vocabulary = { tools: allTools().map(catalogEntry), secretNames: ["SHOP_DB", "SEARCH_KEY"] };
  const secrets = secretsFromRecord({ SHOP_DB: "sqlite:///tmp/bench-shop.db", SEARCH_KEY: "bench-key" });
  const real = configuredModel();
  console.log(`model: ${real ? process.env.ARCHITECT_BENCH_MODEL : "the scripted model (each goal's answer made from what it requires: proves the harness)"}`);
  const outcomes = await runArchitectBench(ARCHITECT_GOALS, {
    vocabulary,
    validate: async (definition) => (await validateWorkflow(definition, { pool, secrets })).problems,
    modelFor: (goal: BenchGoal) => real ?? scriptedModel([{ text: scriptedAnswer(goal) }]),
  });
  for (const outcome of outcomes) {
    const holds = Object.entries(outcome.holds).filter(([, held]) => !held).map(([part]) => part);
    console.log(
      `${outcome.validFirst ? "first " : outcome.validAfterRepair ? "repair" : "FAILED"} ${String(outcome.rounds).padStart(2)} rounds ${outcome.seconds.toFixed(1).padStart(5)} s ${String(outcome.tokens).padStart(6)} tokens  ${outcome.goal.slice(0, 70)}${holds.length > 0 ? `  (lacks: ${holds.join(", ")})` : ""}${outcome.failed ? `  ${outcome.failed}` : ""}`,
    );
  }
  console.log("");
  for (const line of summarize(outcomes)) console.log(line);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
