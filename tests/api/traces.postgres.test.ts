import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from "../support/otlp-receiver";
import { type ApiClient } from "./api-client";
import { chain, removeWorkFolders, shellNode, workFolder } from "./fixtures";
import { setupSharedPostgresDatabase, setupStudioServer } from "./studio-server";
import { startWorker, type WorkerProcess } from "./worker-process";

/*
 * Traces scaled out on PostgreSQL: a web process that only serves and workers
 * that drive runs, each exporting to one OTLP receiver under its own service
 * name. A run's first step ends on one worker; that worker is SIGKILLed while
 * the run waits for a person; another worker finishes it after the decision.
 * The spans still form one trace, each exported once, none by the web process
 * (which hears every event, relayed). Only this project (api-postgresql) runs it.
 */

let receiver: OtlpReceiver;
beforeAll(async () => {
  receiver = await startOtlpReceiver();
});

/** The OpenTelemetry settings of a process, under its own service name. */
const tracing = (service: string) => ({
  OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
  OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
  OTEL_BSP_SCHEDULE_DELAY: "100",
  OTEL_SERVICE_NAME: service,
});

const shared = setupSharedPostgresDatabase();
const web = setupStudioServer(() => ({ database: "postgresql", env: { ...shared, STUDIO_ROLE: "web", ...tracing("studio-web") } }));
const workers: WorkerProcess[] = [];
let api: ApiClient;

beforeAll(() => {
  api = web.client();
});

afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.kill("SIGKILL")));
  await receiver?.close();
  removeWorkFolders();
});

describe("traces of runs driven by workers", () => {
  it("join one trace across a worker killed while the run waited, each span exported once, none by the web process", async () => {
    workers.push(await startWorker({ ...shared, ...tracing("studio-worker-1") }));
    const root = workFolder("studio-traces-");
    const nodes = [
      { id: "in", kind: "input", fields: [] },
      // Read-only: runs without asking, and ends on the first worker.
      { id: "look", kind: "tool", tool: "list_dir", settings: { root }, arguments: { path: "." } },
      // Asks first: the run waits (parked, no worker holds it) until someone decides.
      shellNode("effect", root, "echo done > effect.txt"),
      { id: "out", kind: "output", value: "done" },
    ];
    const workflow = await api.createWorkflow({ name: "Traced across workers", mode: "default", nodes, edges: chain(...nodes.map((node) => node.id)) });
    const traceId = "7a3c0e5b9d1f42a68c0b1e2d3f4a5b6c";
    const callerSpanId = "1b2c3d4e5f607182";
    const started = await api.request("POST", `/api/workflows/${workflow.id}/runs`, { inputs: {} }, { headers: { traceparent: `00-${traceId}-${callerSpanId}-01` } });
    expect(started.status).toBe(201);
    const runId: string = started.body.run.id;

    const approval = await api.waitForApproval(runId, 60_000);
    const ofRun = (span: ReceivedSpan) => span.traceId === traceId;
    await receiver.waitFor((all) => all.some((span) => ofRun(span) && span.name === "step look"));
    await workers[0]!.kill("SIGKILL");
    workers.push(await startWorker({ ...shared, ...tracing("studio-worker-2") }));

    await api.expect(200, "POST", `/api/approvals/${approval.id}`, { decision: "approve", digest: approval.digest });
    const finished = await api.waitForRun(runId, ["succeeded", "failed", "cancelled"], 60_000);
    expect(finished.status, finished.error).toBe("succeeded");

    const spans = (await receiver.waitFor((all) => all.some((span) => ofRun(span) && span.name.startsWith("run ")))).filter(ofRun);
    const byName = (name: string) => spans.filter((span) => span.name === name);
    expect(spans.map((span) => span.name).sort()).toEqual(["approval shell", `run ${workflow.id}`, "step effect", "step in", "step look", "step out"].sort());
    expect(new Set(spans.map((span) => span.spanId)).size).toBe(spans.length);
    // None from the web process, though every event of the run reached it.
    expect(receiver.spans().filter((span) => span.resource["service.name"] === "studio-web")).toEqual([]);

    const [run] = byName(`run ${workflow.id}`);
    const [look] = byName("step look");
    const [effect] = byName("step effect");
    const [waited] = byName("approval shell");
    expect(run).toMatchObject({ parentSpanId: callerSpanId, resource: { "service.name": "studio-worker-2" } });
    expect(look).toMatchObject({ parentSpanId: run!.spanId, resource: { "service.name": "studio-worker-1" } });
    // Started on the first worker, ended on the second: its start is the stored one, before the wait it holds.
    expect(effect).toMatchObject({ parentSpanId: run!.spanId, resource: { "service.name": "studio-worker-2" } });
    expect(waited).toMatchObject({ parentSpanId: effect!.spanId });
    expect(effect!.startMs).toBeLessThanOrEqual(waited!.startMs);
    expect(waited!.endMs).toBeLessThanOrEqual(effect!.endMs);
    expect(run!.startMs).toBeLessThanOrEqual(look!.startMs);
    expect(run!.endMs).toBeGreaterThanOrEqual(effect!.endMs);
  });
});
