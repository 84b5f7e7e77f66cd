import { RUN_ENDING_EVENT_TYPES } from "@/lib/contracts/run-event";
import type { RunEventBus } from "@/lib/workflow/event-bus";
import type { RunEvent } from "@/lib/workflow/run-types";

type ReadEvents = (runId: string, afterSeq: number, limit: number) => Promise<RunEvent[]>;

/**
 * Publishes on this process's bus the events other processes stored, in
 * order and once each: told by a notification which sequence numbers of a run
 * were committed, it reads them from the database (the events themselves never
 * travel in a notification) and publishes them. Each run is relayed one
 * notification at a time, from a cursor that starts just before the first
 * event this process heard of; the event streams' own catch-up from the
 * database covers anything earlier.
 */
export class EventRelay {
  private readonly cursors = new Map<string, number>();
  private readonly chains = new Map<string, Promise<void>>();

  constructor(
    private readonly bus: RunEventBus,
    private readonly read: ReadEvents,
    private readonly log: (message: string, error?: unknown) => void,
  ) {}

  /**
   * `ending`: whether the events include one that ends the run (undefined: not said, by a process of an earlier
   * version). `inline`: the events themselves as JSON, when the notification could carry them (a small commit's).
   */
  eventsStored(runId: string, firstSeq: number, lastSeq: number, ending?: boolean, inline?: string): void {
    const previous = this.chains.get(runId) ?? Promise.resolve();
    const next = previous.then(() => this.relay(runId, firstSeq, lastSeq, ending, inline)).catch((error: unknown) => this.log(`could not relay the events of run ${runId}`, error));
    this.chains.set(runId, next);
    void next.finally(() => {
      if (this.chains.get(runId) === next) this.chains.delete(runId);
    });
  }

  /** After the notification connection broke: read what each run this process follows stored meanwhile. */
  caughtUp(lastSeqOf: (runId: string) => Promise<number | null>): void {
    for (const runId of [...this.cursors.keys()]) {
      void lastSeqOf(runId).then((last) => {
        if (last !== null) this.eventsStored(runId, (this.cursors.get(runId) ?? last) + 1, last);
      });
    }
  }

  private async relay(runId: string, firstSeq: number, lastSeq: number, ending: boolean | undefined, inline: string | undefined): Promise<void> {
    // Nobody here would hear them (a worker hears only runs' ends): not read, as if published.
    if (!this.bus.wants(runId, ending)) {
      if (ending) this.cursors.delete(runId);
      else this.cursors.set(runId, Math.max(lastSeq, this.cursors.get(runId) ?? lastSeq));
      return;
    }
    let cursor = this.cursors.get(runId) ?? firstSeq - 1;
    // Carried by the notification and next in line: published as they came, nothing read. Otherwise (events missed
    // before them, or some of them published already) the table says what comes next.
    const carried = inline !== undefined && cursor === firstSeq - 1 ? carriedEvents(inline, runId, firstSeq, lastSeq) : null;
    if (carried) {
      for (const event of carried) this.bus.publish(event);
      if (carried.some((event) => RUN_ENDING_EVENT_TYPES.has(event.type))) this.cursors.delete(runId);
      else this.cursors.set(runId, lastSeq);
      return;
    }
    while (cursor < lastSeq) {
      const events = await this.read(runId, cursor, Math.min(500, lastSeq - cursor));
      if (events.length === 0) break;
      for (const event of events) {
        this.bus.publish(event);
        cursor = event.seq;
      }
      if (events.some((event) => RUN_ENDING_EVENT_TYPES.has(event.type))) {
        this.cursors.delete(runId);
        return;
      }
    }
    this.cursors.set(runId, cursor);
  }
}

/** The events a notification carried, when they are exactly `firstSeq`..`lastSeq` of `runId` in order; else null (read them). */
function carriedEvents(inline: string, runId: string, firstSeq: number, lastSeq: number): RunEvent[] | null {
  let events: unknown;
  try {
    events = JSON.parse(inline);
  } catch {
    return null;
  }
  if (!Array.isArray(events) || events.length !== lastSeq - firstSeq + 1) return null;
  const inOrder = (events as Partial<RunEvent>[]).every((event, index) => event?.runId === runId && event.seq === firstSeq + index && typeof event.type === "string");
  return inOrder ? (events as RunEvent[]) : null;
}
