import type { DatasetDetail, DatasetRow, DatasetSummary } from "@/lib/contracts/evaluation-dataset";
import { getDatabase, type StudioDatabase } from "./database";
import { ConflictError, NotFoundError } from "./errors";
import { newId } from "./ids";
import { isUniqueViolation } from "./prisma-errors";

/**
 * Evaluation datasets and their rows. A dataset is written whole, in one
 * transaction, or not at all; its rows are read back in their order.
 */

export interface NewDataset {
  workflowId: string;
  name: string;
  source: DatasetSummary["source"];
  rows: readonly { inputs: Record<string, unknown>; expected?: unknown; sourceRunId?: string | null }[];
  createdBy: string | null;
}

/** Rows written per statement: well under SQLite's limit of bound values (six a row). */
const ROWS_PER_INSERT = 1_000;

interface StoredDataset {
  id: string;
  workflowId: string;
  name: string;
  source: string;
  rowCount: number;
  expectedCount: number;
  createdAt: Date;
  createdBy: string | null;
}

function summaryOf(row: StoredDataset): DatasetSummary {
  return { ...row, source: row.source as DatasetSummary["source"], createdAt: row.createdAt.toISOString() };
}

/** Stores a dataset with its rows; ConflictError when the workflow already has one of that name. */
export async function createDataset(dataset: NewDataset, database: StudioDatabase = getDatabase()): Promise<DatasetSummary> {
  const id = newId();
  const expectedCount = dataset.rows.filter((row) => row.expected !== undefined).length;
  try {
    const stored = await database.$transaction(async (transaction) => {
      const created = await transaction.evaluationDataset.create({
        data: { id, workflowId: dataset.workflowId, name: dataset.name, source: dataset.source, rowCount: dataset.rows.length, expectedCount, createdBy: dataset.createdBy },
      });
      for (let start = 0; start < dataset.rows.length; start += ROWS_PER_INSERT) {
        await transaction.evaluationDatasetRow.createMany({
          data: dataset.rows.slice(start, start + ROWS_PER_INSERT).map((row, index) => ({
            id: newId(),
            datasetId: id,
            position: start + index + 1,
            inputs: JSON.stringify(row.inputs),
            expected: row.expected === undefined ? null : JSON.stringify(row.expected),
            sourceRunId: row.sourceRunId ?? null,
          })),
        });
      }
      return created;
    });
    return summaryOf(stored);
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new ConflictError("dataset", dataset.name, `This workflow already has a dataset named “${dataset.name}”: choose another name, or delete that one first.`);
    }
    throw error;
  }
}

/** A workflow's datasets, newest first. */
export async function listDatasets(workflowId: string, database: StudioDatabase = getDatabase()): Promise<DatasetSummary[]> {
  const rows = await database.evaluationDataset.findMany({ where: { workflowId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
  return rows.map(summaryOf);
}

/** A dataset with its rows in order; NotFoundError when there is none of that id (or it is another workflow's, when `workflowId` is given). */
export async function getDataset(id: string, database: StudioDatabase = getDatabase(), workflowId?: string): Promise<DatasetDetail> {
  const dataset = await database.evaluationDataset.findUnique({ where: { id }, include: { rows: { orderBy: { position: "asc" } } } });
  if (!dataset || (workflowId !== undefined && dataset.workflowId !== workflowId)) throw new NotFoundError("dataset", id);
  const rows = dataset.rows.map(
    (row): DatasetRow => ({
      position: row.position,
      inputs: JSON.parse(row.inputs) as Record<string, unknown>,
      ...(row.expected === null ? {} : { expected: JSON.parse(row.expected) as unknown }),
      sourceRunId: row.sourceRunId,
    }),
  );
  return { ...summaryOf(dataset), rows };
}

/** Removes a dataset and its rows; NotFoundError when the workflow has none of that id. */
export async function deleteDataset(workflowId: string, id: string, database: StudioDatabase = getDatabase()): Promise<void> {
  const { count } = await database.evaluationDataset.deleteMany({ where: { id, workflowId } });
  if (count === 0) throw new NotFoundError("dataset", id);
}
