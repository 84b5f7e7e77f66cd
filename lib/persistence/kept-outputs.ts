import type { FullOutputKeeper } from "@/lib/workflow/run-engine";
import { getDatabase, type StudioDatabase } from "./database";
import { preparedRows, preparedWrite } from "./hot-path";
import { newId } from "./ids";

/*
 * Whole results kept beside their stored part (a workflow's
 * `keepFullOutputs`; lib/workflow/engine/stored-output.ts decides when). The
 * JSON is kept in parts of KEPT_PART_BYTES in a table of its own
 * (KeptOutputPart), never in the Step row, so reading a run never loads it,
 * and read back one part at a time, so a download of 200 MB holds 1 MB.
 * In the database rather than a file in the data folder: with workers, the
 * process that ran the step and the web process a person downloads from may
 * be on different machines, and both reach the database. Its rows go with
 * their run (ON DELETE CASCADE): deleting a run, by hand or by retention,
 * removes them in the same statement.
 */

/** One part: large enough that a big result is few rows, small enough that writing one holds SQLite's write lock briefly. */
export const KEPT_PART_BYTES = 1_000_000;

// The parts are written and read as prepared statements (hot-path.ts), not through Prisma: its query compiler would
// carry each megabyte as base64 text through its WebAssembly memory, which grows and never shrinks (keeping a 32 MB
// result took the server from 488 to 937 MB).
const DELETE_PARTS = `DELETE FROM "KeptOutputPart" WHERE "runId" = ? AND "nodeId" = ?`;
const INSERT_PART = `INSERT INTO "KeptOutputPart" ("id", "runId", "nodeId", "part", "bytes") VALUES (?, ?, ?, ?, ?)`;
const COUNT_PARTS = `SELECT count(*) AS "parts" FROM "KeptOutputPart" WHERE "runId" = ? AND "nodeId" = ?`;
const READ_PART = `SELECT "bytes" FROM "KeptOutputPart" WHERE "runId" = ? AND "nodeId" = ? AND "part" = ?`;

export class DatabaseFullOutputs implements FullOutputKeeper {
  constructor(private readonly database: StudioDatabase = getDatabase()) {}

  /**
   * Replaces what was kept for the step (a step run again after a restart
   * keeps its new result). One part per statement: on SQLite each holds the
   * write lock for one part, so runs' own commits go on in between.
   */
  async keep(runId: string, nodeId: string, json: string): Promise<void> {
    const bytes = Buffer.from(json, "utf8");
    if (!(await preparedWrite(this.database, DELETE_PARTS, [runId, nodeId]))) await this.database.keptOutputPart.deleteMany({ where: { runId, nodeId } });
    const parts = Math.max(1, Math.ceil(bytes.length / KEPT_PART_BYTES));
    for (let part = 0; part < parts; part += 1) {
      const slice = bytes.subarray(part * KEPT_PART_BYTES, (part + 1) * KEPT_PART_BYTES);
      const row = [newId(), runId, nodeId, part, slice];
      if (!(await preparedWrite(this.database, INSERT_PART, row))) await this.database.keptOutputPart.create({ data: { id: row[0] as string, runId, nodeId, part, bytes: slice } });
    }
  }

  /**
   * The kept JSON as a stream of its parts, read one at a time as the reader
   * takes them (a reader that stops reading stops the reads); null when none
   * is kept. A part gone midway (the run deleted while it downloads) ends the
   * stream with an error, never a short file that looks whole.
   */
  async open(runId: string, nodeId: string): Promise<ReadableStream<Uint8Array> | null> {
    const counted = await preparedRows<{ parts: number | bigint | string }>(this.database, COUNT_PARTS, [runId, nodeId]);
    const parts = counted ? Number(counted[0]?.parts ?? 0) : await this.database.keptOutputPart.count({ where: { runId, nodeId } });
    if (parts === 0) return null;
    const database = this.database;
    let part = 0;
    return new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          if (part === parts) {
            controller.close();
            return;
          }
          const prepared = await preparedRows<{ bytes: Uint8Array }>(database, READ_PART, [runId, nodeId, part]);
          const row = prepared ? (prepared[0] ?? null) : await database.keptOutputPart.findUnique({ where: { runId_nodeId_part: { runId, nodeId, part } }, select: { bytes: true } });
          if (!row) {
            controller.error(new Error(`Part ${part + 1} of ${parts} of the kept result of node ${nodeId} in run ${runId} is gone (the run was deleted?).`));
            return;
          }
          controller.enqueue(new Uint8Array(row.bytes));
          part += 1;
        },
      },
      // Pulls the next part only once the reader has taken this one.
      { highWaterMark: 0 },
    );
  }
}
