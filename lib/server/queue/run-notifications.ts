import pg from "pg";
import { CANCELS_CHANNEL, DECISIONS_CHANNEL, RUN_EVENTS_CHANNEL } from "@/lib/persistence/run-store";
import { WEBHOOK_TESTS_CHANNEL } from "@/lib/persistence/webhook-test-listens";
import { isWorkerChannel, JOBS_CHANNEL } from "./run-queue";

/**
 * What other processes said over the database (LISTEN/NOTIFY; ids only, the
 * rows are read from their tables): a run's events were stored, a decision was
 * recorded, someone asked to cancel a run, a webhook test listen changed, a
 * run's job was sent. One connection per process, kept
 * open for as long as it runs and opened again when it breaks; after a
 * reconnect `reconnected` is called so what was missed meanwhile is read.
 */
export interface RunNotificationHandlers {
  /**
   * `ending`: whether they include an event that ends the run; undefined when the sender did not say. `inline`: the
   * events as JSON, when the notification carries them (a small commit's; parsed only by a process that wants them).
   */
  eventsStored(runId: string, firstSeq: number, lastSeq: number, ending: boolean | undefined, inline: string | undefined): void;
  decided(approvalId: string): void;
  cancelRequested(runId: string): void;
  testListenChanged(listenId: string): void;
  /** A job that drives a run was sent (and committed), to this process (`toThisProcess`) or to every one. */
  jobSent(runId: string, toThisProcess: boolean): void;
  reconnected(): void;
  log(message: string, error?: unknown): void;
}

export interface RunNotifications {
  close(): Promise<void>;
}

/**
 * `jobsChannel`: a process that works on runs hears the jobs sent to it there
 * (lib/server/queue/run-queue.ts newWorkerChannel); the connection carries it
 * as its application_name, which is how senders find it.
 */
export async function listenForRunNotifications(url: string, handlers: RunNotificationHandlers, jobsChannel?: string): Promise<RunNotifications> {
  if (jobsChannel !== undefined && !isWorkerChannel(jobsChannel)) throw new Error(`Not a jobs channel: ${jobsChannel}`);
  let client: pg.Client | null = null;
  let closed = false;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let delayMs = 100;

  const dispatch = (message: pg.Notification) => {
    const payload = message.payload ?? "";
    if (message.channel === RUN_EVENTS_CHANNEL) {
      // `<run> <first> <last> <end|more>`, then, when it fits, a space and the events as JSON.
      const [runId, first, last, ending] = payload.split(" ", 4);
      const head = [runId, first, last, ending].join(" ");
      const inline = payload.length > head.length + 1 ? payload.slice(head.length + 1) : undefined;
      if (runId && first && last) handlers.eventsStored(runId, Number(first), Number(last), ending === "end" ? true : ending === "more" ? false : undefined, inline);
    } else if (message.channel === DECISIONS_CHANNEL) handlers.decided(payload);
    else if (message.channel === CANCELS_CHANNEL) handlers.cancelRequested(payload);
    else if (message.channel === WEBHOOK_TESTS_CHANNEL) handlers.testListenChanged(payload);
    else if (message.channel === JOBS_CHANNEL) handlers.jobSent(payload, false);
    else if (message.channel === jobsChannel) handlers.jobSent(payload, true);
  };

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url, keepAlive: true, ...(jobsChannel ? { application_name: jobsChannel } : {}) });
    next.on("notification", dispatch);
    next.on("error", (error) => handlers.log("the notification connection failed; reconnecting", error));
    next.on("end", () => {
      if (client === next) client = null;
      if (!closed) scheduleReconnect();
    });
    await next.connect();
    await next.query(`LISTEN ${RUN_EVENTS_CHANNEL}; LISTEN ${DECISIONS_CHANNEL}; LISTEN ${CANCELS_CHANNEL}; LISTEN ${WEBHOOK_TESTS_CHANNEL}; LISTEN ${JOBS_CHANNEL}${jobsChannel ? `; LISTEN ${jobsChannel}` : ""}`);
    client = next;
    delayMs = 100;
  };

  const scheduleReconnect = () => {
    if (retryTimer || closed) return;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      connect().then(
        () => handlers.reconnected(),
        (error: unknown) => {
          handlers.log("could not listen for run notifications; trying again", error);
          delayMs = Math.min(delayMs * 2, 5_000);
          scheduleReconnect();
        },
      );
    }, delayMs);
  };

  await connect();
  return {
    close: async () => {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      await client?.end().catch(() => undefined);
    },
  };
}
