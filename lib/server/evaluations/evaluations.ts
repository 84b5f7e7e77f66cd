import type { ApiIssue } from "@/lib/contracts/api-error";
import type { EvaluationDetail, EvaluationPreflight, EvaluationStart, EvaluationSummary, EvaluationVersion } from "@/lib/contracts/evaluation";
import type { Scorer } from "@/lib/contracts/evaluation-scorer";
import { approvalSteps, hasOutputStep } from "@/lib/evaluations/approval-steps";
import { getWorkflow } from "@/lib/persistence";
import { getDataset } from "@/lib/persistence/dataset-store";
import { cancelEvaluation, createEvaluation, getEvaluation, getEvaluationSummary, listEvaluations } from "@/lib/persistence/evaluation-store";
import { listPins } from "@/lib/persistence/pin-store";
import { findRunnableVersion, type RunnableVersion } from "@/lib/persistence/run-queries";
import { checkJavaScriptSyntax } from "@/lib/sandbox";
import { parseSecretReference } from "@/lib/tools/contracts";
import { inputFieldsOf, runInputsSchema } from "@/lib/workflow/run-inputs";
import { starterOf, type Principal } from "../access/principal";
import { secretsFor } from "../access/secret-view";
import { HttpError } from "../http-error";
import { stepTitles } from "../step-titles";
import { startStudio } from "../studio";
import { toolGate } from "./tool-gate";

/**
 * Evaluations over the API (app/api/workflows/{id}/evaluations…): started
 * after every check a start can make up front (the version has an output
 * step, each row's inputs fit it, a judge's key is a secret the person may
 * use, custom code compiles), so nothing is half-made; then listed, read and
 * cancelled. The rows run in lib/server/evaluations/evaluation-runner.ts.
 */

function unprocessable(issues: ApiIssue[], what: string): HttpError {
  const shown = issues.slice(0, 3).map((issue) => `${issue.path}: ${issue.message}`).join("; ");
  const more = issues.length > 3 ? ` (and ${issues.length - 3} more)` : "";
  return new HttpError(422, `${what} ${shown}${more}`, { issues });
}

async function versionOf(workflowId: string, version: EvaluationVersion): Promise<RunnableVersion> {
  const { database } = await startStudio();
  try {
    return await findRunnableVersion(workflowId, version === "draft" ? undefined : version, database);
  } catch (error) {
    // The workflow exists and the version does not: the field is wrong, not the path.
    if (version !== "draft" && (await database.workflow.count({ where: { id: workflowId } })) === 1) {
      throw unprocessable([{ path: "version", message: `this workflow has no version ${version}`, code: "custom" }], "The evaluation cannot start:");
    }
    throw error;
  }
}

/** The problems of the scorers that only the server can see: a judge's key, a judge's server, custom code that does not compile. */
async function scorerIssues(principal: Principal, scorers: readonly Scorer[]): Promise<ApiIssue[]> {
  const { database } = await startStudio();
  const issues: ApiIssue[] = [];
  let usable: string[] | null = null;
  for (const [index, scorer] of scorers.entries()) {
    if (scorer.kind === "llm-judge") {
      if (scorer.model.provider === "openai_compatible" && !scorer.model.baseUrl) {
        issues.push({ path: `scorers[${index}].model.baseUrl`, message: "an OpenAI-compatible server needs its base URL, e.g. http://127.0.0.1:11434/v1", code: "custom" });
      }
      if (scorer.model.apiKey) {
        usable ??= (await secretsFor(principal, database)).map((secret) => secret.name);
        const name = parseSecretReference(scorer.model.apiKey)!;
        if (!usable.includes(name)) issues.push({ path: `scorers[${index}].model.apiKey`, message: `no stored secret ${name} you may use; store the provider's key in Settings → Secrets`, code: "custom" });
      }
    }
    if (scorer.kind === "code") {
      const problem = await checkJavaScriptSyntax(scorer.code, ["output", "expected", "inputs"]);
      if (problem) issues.push({ path: `scorers[${index}].code`, message: `line ${problem.line}: ${problem.message}`, code: "custom" });
    }
  }
  return issues;
}

/**
 * POST: an evaluation of the version over the dataset, every row pending; the runner starts them. 422 naming the
 * field (a version without an output step, a row the version cannot take, a scorer's problem); 404 for a dataset
 * that is not the workflow's.
 */
export async function startEvaluation(principal: Principal, workflowId: string, body: EvaluationStart): Promise<EvaluationSummary> {
  const studio = await startStudio();
  const version = await versionOf(workflowId, body.version);
  if (!hasOutputStep(version.definition)) {
    throw unprocessable(
      [{ path: "version", message: `version ${version.version} has no Output step: an evaluation scores what each run gives; add one and save`, code: "custom" }],
      "The evaluation cannot start:",
    );
  }
  const dataset = await getDataset(body.datasetId, studio.database, workflowId);
  if (dataset.rows.length === 0) throw unprocessable([{ path: "datasetId", message: "the dataset has no rows", code: "custom" }], "The evaluation cannot start:");
  // Rows are checked against the version evaluated (the dataset was checked against the newest when it was made).
  const schema = runInputsSchema(inputFieldsOf(version.definition));
  const rowIssues: ApiIssue[] = [];
  const rows = dataset.rows.map((row) => {
    const parsed = schema.safeParse(row.inputs);
    if (!parsed.success) {
      for (const issue of parsed.error.issues.slice(0, 3)) {
        const field = issue.code === "unrecognized_keys" ? issue.keys.join(", ") : issue.path.join(".");
        rowIssues.push({ path: `datasetId`, message: `row ${row.position}: ${field ? `${field}: ` : ""}${issue.message} (version ${version.version}'s inputs)`, code: "custom" });
      }
    }
    return { position: row.position, inputs: row.inputs, ...(row.expected === undefined ? {} : { expected: row.expected }) };
  });
  if (rowIssues.length > 0) throw unprocessable(rowIssues.slice(0, 50), "The dataset has rows this version cannot run:");
  const issues = await scorerIssues(principal, body.scorers);
  if (issues.length > 0) throw unprocessable(issues, "The scorers are not ready:");
  const id = await createEvaluation(
    {
      workflowId,
      versionId: version.versionId,
      version: version.version,
      draft: body.version === "draft",
      datasetId: dataset.id,
      datasetName: dataset.name,
      scorers: body.scorers,
      concurrency: body.concurrency,
      rows,
      startedBy: starterOf(principal),
    },
    studio.database,
  );
  studio.evaluations?.wake(id);
  return getEvaluationSummary(workflowId, id, studio.database);
}

export async function workflowEvaluations(workflowId: string): Promise<EvaluationSummary[]> {
  const { database } = await startStudio();
  await getWorkflow(workflowId, database);
  return listEvaluations(workflowId, database);
}

export async function workflowEvaluation(workflowId: string, evaluationId: string): Promise<EvaluationDetail> {
  const { database } = await startStudio();
  return getEvaluation(workflowId, evaluationId, database);
}

/** Cancels an evaluation: no more rows start, the running rows' runs are cancelled. 409 when it had already ended. */
export async function stopEvaluation(principal: Principal, workflowId: string, evaluationId: string): Promise<EvaluationDetail> {
  const studio = await startStudio();
  const runIds = await cancelEvaluation(workflowId, evaluationId, studio.database);
  if (runIds === null) throw new HttpError(409, "This evaluation has already ended: there is nothing to cancel.");
  await Promise.all(
    runIds.map((runId) => studio.runs.cancel(runId, principal.person).catch((error: unknown) => console.error(`[studio] could not cancel run ${runId} of evaluation ${evaluationId}`, error))),
  );
  return getEvaluation(workflowId, evaluationId, studio.database);
}

/** What the form says before a start: the steps that will ask for approval in every row, those kept from pins, and whether the version can be evaluated. */
export async function evaluationPreflight(workflowId: string, version: EvaluationVersion): Promise<EvaluationPreflight> {
  const studio = await startStudio();
  const runnable = await versionOf(workflowId, version);
  const pool = studio.pool();
  const pins = new Set((await listPins(workflowId, studio.database)).map((pin) => pin.nodeId));
  const steps = approvalSteps(runnable.definition, toolGate(pool), pins);
  const title = stepTitles(runnable.definition.nodes, pool);
  const named = (nodeId: string) => ({ nodeId, title: title(nodeId) });
  return {
    version: runnable.version,
    asks: steps.asks.map(named),
    pinned: steps.pinned.map(named),
    refusal: hasOutputStep(runnable.definition) ? null : `Version ${runnable.version} has no Output step: an evaluation scores what each run gives. Add one and save.`,
  };
}
