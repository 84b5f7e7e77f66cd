import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor, type Json } from "./api-client";
import { edge } from "./fixtures";
import { rawRequest } from "./raw-http";
import { connectEventStream } from "./sse-client";
import { setupSharedPostgresDatabase, setupStudioServer, type StudioServer } from "./studio-server";
import { startWorker, type WorkerProcess } from "./worker-process";

/**
 * The test address across processes on PostgreSQL: the editor listens through
 * one web process, the delivery reaches another, a worker drives the run. The
 * listen is a stored row, and the listening stream is woken by the database's
 * notification, not by the process that took the delivery.
 */

const shared = setupSharedPostgresDatabase();
const webs = [0, 1].map(() => setupStudioServer(() => ({ database: "postgresql", env: { ...shared, STUDIO_ROLE: "web" } })));
let worker: WorkerProcess | undefined;

beforeAll(async () => {
  worker = await startWorker(shared);
}, 180_000);

afterAll(async () => {
  await worker?.kill("SIGKILL");
});

describe("the webhook test address on several processes", () => {
  it("captures at one web process what the editor listens for at another, and both runs lists hear of the run", async () => {
    const [listening, receiving] = webs as [StudioServer, StudioServer];
    const api = listening.client();
    const hookId = `pgtesturl${randomBytes(8).toString("hex")}`;
    const { id } = await api.createWorkflow({
      name: "Across processes",
      nodes: [
        { id: "in", kind: "input", fields: [{ name: "name", type: "string", required: true }] },
        { id: "hook", kind: "webhook", hookId, authentication: "none", mapping: [{ input: "name", from: "body.name" }] },
        { id: "out", kind: "output", value: "Hi {{ inputs.name }}" },
      ],
      edges: [edge("hook", "out"), edge("in", "out")],
    });
    const path = `/api/workflows/${id}/webhooks/hook/listen`;
    const { listen } = await api.expect(201, "POST", path, { version: 1 });
    const stream = await connectEventStream(`${listening.url}${path}?listen=${listen.listenId}`, { token: listening.token });
    const feeds = await Promise.all(webs.map((web) => connectEventStream(`${web.url}/api/events`, { token: web.token })));
    try {
      expect((await stream.next())?.event).toBe("listening");
      for (const feed of feeds) expect((await feed.next())?.event).toBe("pending-approvals");

      const answer = await rawRequest(`${receiving.url}/hooks-test/${hookId}`, { method: "POST", body: { name: "Ada" } });
      expect(answer.status).toBe(200);
      expect(answer.text).toBe("Hi Ada");

      const captured = await stream.next();
      expect(captured?.event).toBe("captured");
      const result = JSON.parse(captured!.data);
      expect(result.capture.body).toEqual({ name: "Ada" });
      expect(result.runId).toEqual(expect.any(String));
      // The runs list of either web process hears of the run the worker drove.
      for (const feed of feeds) {
        const heard: Json[] = [];
        while (!heard.some((change) => change.runId === result.runId && change.type === "run-succeeded")) {
          const message = await feed.next();
          if (message?.event === "change") heard.push(JSON.parse(message.data));
        }
      }
      const run = await waitFor(async () => {
        const found = (await api.expect(200, "GET", `/api/runs/${result.runId}`)).run;
        return found.status === "succeeded" ? found : undefined;
      }, { what: "the test run finishes" });
      expect(run.trigger).toMatchObject({ kind: "webhook", test: true });
      // Over: the other process finds nobody listening either.
      expect((await rawRequest(`${listening.url}/hooks-test/${hookId}`, { method: "POST", body: { name: "Again" } })).status).toBe(404);
    } finally {
      stream.close();
      for (const feed of feeds) feed.close();
    }
  });
});
