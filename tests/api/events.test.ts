import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "./api-client";
import { removeWorkFolders, shellChainWorkflow, workFolder, writeFileWorkflow } from "./fixtures";
import { connectEventStream, runEventsOf, type SseMessage } from "./sse-client";
import { setupStudioServer } from "./studio-server";

const server = setupStudioServer();
let api: ApiClient;

beforeAll(() => {
  api = server.client();
});

afterAll(() => {
  removeWorkFolders();
});

const streamUrl = (runId: string, query = "") => `${server.url}/api/runs/${runId}/events${query}`;

/** Reads messages until one satisfies `until` (included). */
async function readUntil(stream: { next(timeoutMs?: number): Promise<SseMessage | null> }, until: (message: SseMessage) => boolean) {
  const messages: SseMessage[] = [];
  for (;;) {
    const message = await stream.next(15_000);
    if (message === null) throw new Error(`The stream ended before the awaited event; got ${messages.map((each) => each.event).join(", ")}`);
    messages.push(message);
    if (until(message)) return messages;
  }
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => from + index);

describe("GET /api/runs/{id}/events", () => {
  it("streams stored events with their seq as the id, resumes exactly after Last-Event-ID, then ends", async () => {
    const root = workFolder();
    const { id } = await api.createWorkflow(writeFileWorkflow(root));
    const run = await api.startRun(id, { text: "streamed" });
    const approval = await api.waitForApproval(run.id);

    const first = await connectEventStream(streamUrl(run.id), api.credential);
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const seen = await readUntil(first, (message) => message.event === "run-awaiting-input");
    first.close();
    for (const message of seen) {
      const event = JSON.parse(message.data);
      expect(message.id).toBe(String(event.seq));
      expect(message.event).toBe(event.type);
      expect(event.runId).toBe(run.id);
    }
    const seqs = runEventsOf(seen).map((event) => event.seq);
    const waitingAt = seqs.at(-1)!;
    expect(seqs).toEqual(range(1, waitingAt));
    expect(runEventsOf(seen).map((event) => event.type)).toEqual(expect.arrayContaining(["run-started", "node-started", "approval-requested"]));

    // Reconnect as EventSource would after missing everything from seq 3 on.
    const second = await connectEventStream(streamUrl(run.id), { ...api.credential, lastEventId: 2 });
    const replayed = await readUntil(second, (message) => message.id === String(waitingAt));
    expect(runEventsOf(replayed).map((event) => event.seq)).toEqual(range(3, waitingAt));

    // Then live events, as they happen.
    await api.expect(200, "POST", `/api/approvals/${approval.id}`, { decision: "once" });
    const live = await second.rest(15_000);
    const liveEvents = runEventsOf(live);
    expect(liveEvents.map((event) => event.seq)).toEqual(range(waitingAt + 1, waitingAt + liveEvents.length));
    expect(liveEvents[0]).toMatchObject({ type: "approval-decided", payload: { approval: { decision: "once" } } });
    expect(liveEvents.at(-1)!.type).toBe("run-succeeded");
    expect(live.at(-1)).toMatchObject({ event: "end", id: null });
    const lastSeq = liveEvents.at(-1)!.seq;
    expect((await api.getRun(run.id)).lastSeq).toBe(lastSeq);

    // After the end: ?after= works like Last-Event-ID, and a viewer that saw everything just gets `end`.
    const late = await connectEventStream(streamUrl(run.id, "?after=5"), api.credential);
    const lateMessages = await late.rest();
    expect(runEventsOf(lateMessages).map((event) => event.seq)).toEqual(range(6, lastSeq));
    expect(lateMessages.at(-1)!.event).toBe("end");
    const upToDate = await connectEventStream(streamUrl(run.id), { ...api.credential, lastEventId: lastSeq });
    expect(await upToDate.rest()).toEqual([{ id: null, event: "end", data: "{}" }]);
  });

  it("gives viewers that keep reconnecting mid-run every event exactly once", async () => {
    const root = workFolder();
    const commands = Array.from({ length: 25 }, (_, index) => `echo step ${index} > /dev/null; sleep 0.02`);
    const { id } = await api.createWorkflow(shellChainWorkflow(root, commands, "Many small steps"));
    const run = await api.startRun(id);

    const viewers = await Promise.all(
      [2, 3, 5].map(async (batch) => {
        const received: number[] = [];
        let lastEventId = 0;
        for (let connection = 0; connection < 200; connection += 1) {
          const stream = await connectEventStream(streamUrl(run.id), { ...api.credential, lastEventId });
          let ended = false;
          for (let read = 0; read < batch; read += 1) {
            const message = await stream.next(15_000);
            if (message === null || message.event === "end") {
              ended = true;
              break;
            }
            received.push(Number(message.id));
            lastEventId = Number(message.id);
          }
          stream.close();
          if (ended) return received;
        }
        throw new Error("the stream never ended");
      }),
    );
    const finished = await api.waitForRun(run.id);
    expect(finished.status, finished.error).toBe("succeeded");
    for (const received of viewers) expect(received).toEqual(range(1, finished.lastSeq));
  });

  it("carries the door's security headers, like every route Next serves, though scripts/serve.mjs answers it past Next", async () => {
    const { id } = await api.createWorkflow(shellChainWorkflow(workFolder(), ["true"], "Headers"));
    const viaNext = await api.get(`/api/workflows/${id}`);
    const started = await api.request("POST", `/api/workflows/${id}/runs`, { inputs: {} });
    expect(started.status).toBe(201);
    const stream = await connectEventStream(streamUrl((started.body as { run: { id: string } }).run.id), api.credential);
    expect(stream.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    for (const name of ["content-security-policy", "x-frame-options", "x-content-type-options", "referrer-policy", "cross-origin-opener-policy"]) {
      expect(viaNext.headers.get(name), name).toBeTruthy();
      expect(started.headers.get(name), name).toBe(viaNext.headers.get(name));
      expect(stream.headers.get(name), name).toBe(viaNext.headers.get(name));
    }
    expect(runEventsOf(await stream.rest()).at(-1)!.type).toBe("run-succeeded");
  });

  it("answers 404 for an unknown run, and treats a garbage Last-Event-ID as the start", async () => {
    const missing = await connectEventStream(streamUrl("01NOSUCHRUN"), api.credential);
    expect(missing.status).toBe(404);
    missing.close();

    const { id } = await api.createWorkflow(shellChainWorkflow(workFolder(), ["true"], "One step"));
    const run = await api.startRun(id);
    await api.waitForRun(run.id);
    const garbage = await connectEventStream(streamUrl(run.id), { ...api.credential, lastEventId: "abc" });
    const events = runEventsOf(await garbage.rest());
    expect(events[0]!.seq).toBe(1);
    expect(events.at(-1)!.type).toBe("run-succeeded");
  });
});
