import type { StatementRunner } from "@/lib/persistence/postgres-statements";
import { END_DRIVES, RENEW_LEASES, type TakenDrive } from "./run-drive-sql";

interface PendingEnd extends TakenDrive {
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * A process's writes to the drives it holds: their ends and the renewals of
 * their leases, one statement at a time. Both touch several of its rows, and
 * two of them at once on two connections could lock those rows in different
 * orders (PostgreSQL would abort one as a deadlock); in one lane they cannot.
 *
 * Ends are written together: the drives that end while a statement is on its
 * way go in the next, so a busy worker pays one round trip for several runs'
 * ends rather than one each (as its commits share a transaction,
 * lib/persistence/postgres-commit-group.ts). Each end resolves once the
 * statement that holds it has run; all of a failed statement's ends reject
 * with its error.
 */
export class DriveWrites {
  private pending: PendingEnd[] = [];
  private endsScheduled = false;
  private lane: Promise<unknown> = Promise.resolve();
  /** Writes queued or running. */
  private queued = 0;

  constructor(private readonly statements: StatementRunner) {}

  end(drive: TakenDrive): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ runId: drive.runId, driver: drive.driver, resolve, reject });
      if (this.endsScheduled) return;
      this.endsScheduled = true;
      void this.inLane(() => this.writeEnds());
    });
  }

  /** Renews the leases of `drives` for `seconds`; the drive ids whose lease was renewed (the others were lost). */
  async renew(drives: readonly TakenDrive[], seconds: number): Promise<Set<string>> {
    const { rows } = await this.inLane(() =>
      this.statements.run<{ driver: string }>(RENEW_LEASES, [drives.map((drive) => drive.runId), drives.map((drive) => drive.driver), seconds]),
    );
    return new Set(rows.map((row) => row.driver));
  }

  /** Runs `write` at once when nothing else is, else once every write queued before it has run (succeeded or not). */
  private inLane<T>(write: () => Promise<T>): Promise<T> {
    const next = this.queued === 0 ? write() : this.lane.then(write, write);
    this.queued += 1;
    this.lane = next.catch(() => undefined).finally(() => (this.queued -= 1));
    return next;
  }

  private async writeEnds(): Promise<void> {
    // Ends that come from now on go in the next statement.
    this.endsScheduled = false;
    const batch = this.pending;
    this.pending = [];
    try {
      await this.statements.run(END_DRIVES, [batch.map((end) => end.runId), batch.map((end) => end.driver)]);
      for (const end of batch) end.resolve();
    } catch (error) {
      for (const end of batch) end.reject(error);
    }
  }
}
