import type { ApiIssue } from "@/lib/contracts/api-error";
import {
  DATASET_FILE_MAX_BYTES,
  type DatasetDetail,
  type DatasetFromRuns,
  type DatasetSummary,
  type DatasetFormat,
} from "@/lib/contracts/evaluation-dataset";
import { formatBytes } from "@/lib/format/bytes";
import { parseDatasetFile, type DatasetFileRow } from "@/lib/evaluations/dataset-file";
import { getWorkflow } from "@/lib/persistence";
import { createDataset, deleteDataset, getDataset, listDatasets } from "@/lib/persistence/dataset-store";
import { inputFieldsOf, runInputsSchema } from "@/lib/workflow/run-inputs";
import { scopesOnWorkflow } from "./access/workflow-access";
import type { Principal } from "./access/principal";
import { failure, HttpError, readBodyBytes } from "./http";
import { startStudio } from "./studio";

/**
 * A workflow's evaluation datasets (app/api/workflows/{id}/datasets…): made
 * from a file checked row by row against the workflow's inputs (its newest
 * version's), or from its past runs; listed, read, deleted.
 */

/** A 422 naming every bad row, or the dataset made. */
type Made = { dataset: DatasetSummary } | { refused: Response };

function refused(issues: ApiIssue[], what: string): Made {
  const shown = issues.slice(0, 3).map((issue) => issue.message).join("; ");
  const more = issues.length > 3 ? ` (and ${issues.length - 3} more)` : "";
  return { refused: failure({ error: `${what} ${shown}${more}`, issues }, 422) };
}

/** POST with the file as the body: 413 past DATASET_FILE_MAX_BYTES (before parsing), 422 naming the bad rows, 409 for a name taken. */
export async function uploadDataset(request: Request, principal: Principal, workflowId: string, name: string, format: DatasetFormat): Promise<Made> {
  const { database } = await startStudio();
  const workflow = await getWorkflow(workflowId, database);
  const declared = Number(request.headers.get("content-length") ?? "0");
  const bytes = declared > DATASET_FILE_MAX_BYTES ? "too-large" : await readBodyBytes(request, DATASET_FILE_MAX_BYTES);
  if (bytes === "too-large") throw new HttpError(413, `The file is larger than ${formatBytes(DATASET_FILE_MAX_BYTES)}, the most a dataset is made from: split it, or keep the rows that matter.`);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new HttpError(422, "The file is not UTF-8 text: save it as UTF-8 (CSV UTF-8 in a spreadsheet) and upload it again.");
  }
  const parsed = parseDatasetFile(text, format, inputFieldsOf(workflow.definition));
  if ("issues" in parsed) return refused(parsed.issues, `The file has rows this workflow cannot run:`);
  const dataset = await createDataset({ workflowId, name, source: format, rows: parsed.rows, createdBy: principal.person }, database);
  return { dataset };
}

/**
 * POST from-runs: the runs' inputs become rows and the outputs of those that succeeded their expected outputs. A run
 * of another workflow is the same 404 as none; the caller must be able to read the workflow's runs.
 */
export async function datasetFromRuns(principal: Principal, workflowId: string, body: DatasetFromRuns): Promise<Made> {
  const { database } = await startStudio();
  if (!(await scopesOnWorkflow(principal, workflowId, database))?.has("run:read")) {
    throw new HttpError(403, "Making a dataset from runs needs run:read on this workflow: its runs' inputs and outputs become the rows.");
  }
  const workflow = await getWorkflow(workflowId, database);
  const runs = await database.run.findMany({ where: { id: { in: body.runIds }, workflowId }, select: { id: true, inputs: true, output: true, status: true } });
  const byId = new Map(runs.map((run) => [run.id, run]));
  const missing = body.runIds.filter((id) => !byId.has(id));
  if (missing.length > 0) throw new HttpError(404, `No run ${missing.map((id) => `"${id}"`).join(", ")} of this workflow exists. It may have been deleted; pick runs from its list.`);
  const schema = runInputsSchema(inputFieldsOf(workflow.definition));
  const issues: ApiIssue[] = [];
  const rows: (DatasetFileRow & { sourceRunId: string })[] = [];
  body.runIds.forEach((runId, index) => {
    const run = byId.get(runId)!;
    const inputs = schema.safeParse(JSON.parse(run.inputs));
    if (!inputs.success) {
      const fields = inputs.error.issues.map((issue) => (issue.code === "unrecognized_keys" ? issue.keys.join(", ") : issue.path.join("."))).join(", ");
      issues.push({ path: `runIds[${index}]`, message: `run ${runId} was started with inputs the workflow no longer takes (${fields})`, code: "custom" });
      return;
    }
    const expected = run.status === "succeeded" && run.output !== null ? (JSON.parse(run.output) as unknown) : undefined;
    rows.push({ inputs: inputs.data, ...(expected === undefined ? {} : { expected }), sourceRunId: runId });
  });
  if (issues.length > 0) return refused(issues, "Some runs do not fit the workflow's inputs now:");
  return { dataset: await createDataset({ workflowId, name: body.name, source: "runs", rows, createdBy: principal.person }, database) };
}

export async function workflowDatasets(workflowId: string): Promise<DatasetSummary[]> {
  const { database } = await startStudio();
  await getWorkflow(workflowId, database);
  return listDatasets(workflowId, database);
}

export async function workflowDataset(workflowId: string, datasetId: string): Promise<DatasetDetail> {
  const { database } = await startStudio();
  return getDataset(datasetId, database, workflowId);
}

export async function removeDataset(workflowId: string, datasetId: string): Promise<void> {
  const { database } = await startStudio();
  await deleteDataset(workflowId, datasetId, database);
}
