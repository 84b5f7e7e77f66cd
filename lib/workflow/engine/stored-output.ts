/**
 * What a step stores of its result: the bounded part (bound-output.ts) and,
 * when its workflow keeps full outputs, the whole result kept beside it
 * through the engine's FullOutputKeeper, the notice saying which happened.
 */
import { MAX_KEPT_OUTPUT_BYTES, type StepOutput } from "@/lib/contracts/run";
import { formatBytes } from "@/lib/format/bytes";
import { boundStepOutput } from "../bound-output";
import type { ActiveRun } from "./active-run";
import type { EngineContext } from "./engine-context";

/** `output` as the step stores it, the whole kept first when it was cut and the workflow asks for it. */
export async function storedOutput(engine: EngineContext, run: ActiveRun, nodeId: string, output: StepOutput): Promise<StepOutput> {
  const stored = boundStepOutput(output);
  const truncation = stored.truncated;
  const keeper = engine.options.fullOutputs;
  if (!truncation || !run.definition.keepFullOutputs || !keeper) return stored;
  const noticed = (words: string, kept?: true): StepOutput => ({ ...stored, truncated: { ...truncation, ...(kept ? { kept } : {}), notice: `${truncation.notice} ${words}` } });
  if (truncation.totalBytes > MAX_KEPT_OUTPUT_BYTES) {
    return noticed(`The whole result was not kept: it is over the ${formatBytes(MAX_KEPT_OUTPUT_BYTES)} a step keeps.`);
  }
  try {
    await keeper.keep(run.runId, nodeId, JSON.stringify(output));
    return noticed("The whole result is kept: download it from the run page.", true);
  } catch (error) {
    engine.options.log?.(`Could not keep the whole result of node ${nodeId} in run ${run.runId}`, error);
    return noticed("The whole result could not be kept (see the studio's log).");
  }
}
