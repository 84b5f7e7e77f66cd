import type { StatementRunner } from "@/lib/persistence/postgres-statements";
import { END_DRIVES, type TakenDrive } from "./run-drive-sql";

interface PendingEnd extends TakenDrive {
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * The ends of a process's drives, written together: the drives that end while
 * one statement is on its way go in the next, so a busy worker pays one round
 * trip for several runs' ends rather than one each (as its commits share a
 * transaction, lib/persistence/postgres-commit-group.ts). Each end resolves
 * once the statement that holds it has run; all of a failed statement's ends
 * reject with its error. Rows are only ever touched by their holder here, so
 * two processes' statements never wait on each other.
 */
export class DriveEnds {
  private pending: PendingEnd[] = [];
  private writing = false;

  constructor(private readonly statements: StatementRunner) {}

  end(drive: TakenDrive): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ runId: drive.runId, driver: drive.driver, resolve, reject });
      void this.write();
    });
  }

  private async write(): Promise<void> {
    if (this.writing) return;
    this.writing = true;
    try {
      while (this.pending.length > 0) {
        const batch = this.pending;
        this.pending = [];
        try {
          await this.statements.run(END_DRIVES, [batch.map((end) => end.runId), batch.map((end) => end.driver)]);
          for (const end of batch) end.resolve();
        } catch (error) {
          for (const end of batch) end.reject(error);
        }
      }
    } finally {
      this.writing = false;
    }
  }
}
