import type { JudgeModel } from "@/lib/contracts/evaluation-scorer";
import { sharedSandboxPool } from "@/lib/sandbox";
import { parseSecretReference } from "@/lib/tools/contracts";
import { secretsOfWorkflow } from "@/lib/tools/secrets";
import { createAgentModel } from "@/lib/workflow/agent/agent-model";
import { EvaluationRunner, type EvaluationRunnerOptions } from "./evaluation-runner";

/**
 * Starts the evaluation runner of a process that drives runs, with the studio's
 * way of scoring: a judge's model built as an Agent node's (its key read as the
 * workflow's steps read secrets, at the moment it scores), custom scorers in
 * the shared sandbox the Code node uses.
 */
export function startEvaluations(options: Omit<EvaluationRunnerOptions, "scoring">): EvaluationRunner {
  const runner = new EvaluationRunner({
    ...options,
    scoring: (workflowId) => ({
      judgeModel: async (model: JudgeModel) => {
        const name = model.apiKey ? parseSecretReference(model.apiKey) : null;
        const apiKey = name ? await secretsOfWorkflow(options.secrets, workflowId)(name) : undefined;
        if (name && apiKey === undefined) throw new Error(`the judge's key, the secret ${name}, is not stored or not usable by this workflow`);
        return createAgentModel(model, apiKey);
      },
      sandbox: sharedSandboxPool(),
    }),
  });
  runner.start();
  return runner;
}
