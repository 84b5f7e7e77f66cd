// The studio over HTTP, the path a person or a webhook meets: the built server (`node scripts/serve.mjs`, SQLite,
// every run and event persisted), authenticated with the access token as a script would be, 10 clients at once.
// For each workflow, two shapes: start a run and read its event stream to the end (like n8n's "answer when finished"
// webhook), and start only. Prints requests/s and latency percentiles; never asserts. Compare with n8n in the
// same sitting (../shared/anchors/n8n-bench.sh) and report the ratio, not the figure.
// Run after `npx next build`: npx tsx bench/http.bench.ts [seconds=10] [concurrency=10]
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { processCpuSeconds } from "./cpu-profile";
import { REPO_ROOT, listDirChain, percentile, startWeb, type StudioClient } from "./studio-process";

const SECONDS = Number(process.argv[2] ?? 10);
const CONCURRENCY = Number(process.argv[3] ?? 10);

/**
 * BENCH_OTLP=http/protobuf (or http/json) exports every run's trace to a collector on loopback that takes each
 * request and answers 200 at once: the cost of tracing to the server, next to a run without it.
 */
async function startCollector(): Promise<{ env: Record<string, string>; received: () => string; close: () => void }> {
  const protocol = process.env.BENCH_OTLP;
  if (!protocol) return { env: {}, received: () => "", close: () => undefined };
  let requests = 0;
  let bytes = 0;
  const collector = http.createServer((request, response) => {
    request.on("data", (chunk: Buffer) => (bytes += chunk.length));
    request.on("end", () => {
      requests += 1;
      response.writeHead(200, { "content-type": protocol === "http/json" ? "application/json" : "application/x-protobuf" }).end(protocol === "http/json" ? "{}" : "");
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve));
  const { port } = collector.address() as AddressInfo;
  return {
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`, OTEL_EXPORTER_OTLP_PROTOCOL: protocol },
    received: () => `traces exported over ${protocol}: ${requests} requests, ${(bytes / 1e6).toFixed(1)} MB`,
    close: () => collector.close(),
  };
}

async function startStudio(collectorEnv: Record<string, string>) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "studio-http-bench-"));
  // BENCH_NEXT_START=1 serves through a bare `next start` instead of the launcher, to compare the two (it reads -p, not PORT).
  const command = (port: number) => [path.join(REPO_ROOT, "node_modules/next/dist/bin/next"), "start", "-H", "127.0.0.1", "-p", String(port)];
  // BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/studio-prof" profiles the server under this load.
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean);
  // BENCH_STUDIO_ENV="STUDIO_SQLITE_WRITER=inline" hands the studio settings of its own (a bench clears the caller's STUDIO_*).
  const settings = Object.fromEntries((process.env.BENCH_STUDIO_ENV ?? "").split(" ").filter(Boolean).map((pair) => pair.split("=", 2) as [string, string]));
  const web = await startWeb({
    env: { ...settings, ...collectorEnv, STUDIO_DATA_DIR: dataDir },
    nodeArgs,
    command: process.env.BENCH_NEXT_START ? command : undefined,
    maxSockets: CONCURRENCY * 2,
  });
  return { web, dataDir };
}

/**
 * The server's CPU per run, on its main thread (the one that serves HTTP: what bounds it) and in all its threads:
 * steadier than runs/s on a shared machine, where a neighbour's load moves the throughput but not the work per run.
 */
function cpuMeter(pid: number): () => { mainMs: number; allMs: number } {
  const mainThread = () => processCpuSeconds(pid, pid);
  const allThreads = () => processCpuSeconds(pid);
  const [main0, all0] = [mainThread(), allThreads()];
  return () => {
    const [main1, all1] = [mainThread(), allThreads()];
    if (main0 === null || main1 === null || all0 === null || all1 === null) return { mainMs: NaN, allMs: NaN };
    return { mainMs: (main1 - main0) * 1000, allMs: (all1 - all0) * 1000 };
  };
}

async function measure(client: StudioClient, workflowId: string, untilFinished: boolean, serverPid: number): Promise<string> {
  const latencies: number[] = [];
  const deadline = performance.now() + SECONDS * 1000;
  let failures = 0;
  const oneClient = async () => {
    while (performance.now() < deadline) {
      const started = performance.now();
      const created = await client.request("POST", `/api/workflows/${workflowId}/runs`, { inputs: {} });
      if (created.status !== 201) {
        failures += 1;
        continue;
      }
      if (untilFinished) {
        const { run } = JSON.parse(created.body) as { run: { id: string } };
        // The stream replays what happened and ends with `end` once the run has finished.
        const stream = await client.request("GET", `/api/runs/${run.id}/events`);
        if (!stream.body.includes("event: end")) failures += 1;
      }
      latencies.push(performance.now() - started);
    }
  };
  const began = performance.now();
  const cpu = cpuMeter(serverPid);
  await Promise.all(Array.from({ length: CONCURRENCY }, oneClient));
  const { mainMs, allMs } = cpu();
  const elapsed = (performance.now() - began) / 1000;
  latencies.sort((left, right) => left - right);
  const perRun = (ms: number) => (Number.isFinite(ms) ? (ms / latencies.length).toFixed(2) : "?");
  return (
    `${(latencies.length / elapsed).toFixed(1)} req/s, p50 ${percentile(latencies, 0.5).toFixed(1)} ms, p99 ${percentile(latencies, 0.99).toFixed(1)} ms (${latencies.length} runs${failures ? `, ${failures} failed` : ""}); ` +
    `server CPU per run ${perRun(mainMs)} ms on its main thread, ${perRun(allMs)} ms in all`
  );
}

async function main(): Promise<void> {
  const collector = await startCollector();
  const { web, dataDir } = await startStudio(collector.env);
  try {
    const root = mkdtempSync(path.join(os.tmpdir(), "studio-http-bench-root-"));
    const ids: Record<string, string> = {};
    for (const [name, steps] of [["minimal", 0], ["ten steps", 10]] as const) ids[name] = await web.client.createWorkflow(listDirChain(`bench ${name}`, steps, root));
    console.log(`studio over HTTP, ${CONCURRENCY} clients, ${SECONDS} s each (node ${process.version}, ${os.cpus().length} cores)`);
    // BENCH_ONLY="minimal stream" measures one shape (a workflow name and "stream" or "start"), e.g. to profile it alone.
    const only = process.env.BENCH_ONLY ?? "";
    const wanted = (name: string, shape: "stream" | "start") => only === "" || (only.includes(name) && only.includes(shape));
    for (const name of Object.keys(ids)) {
      if (wanted(name, "stream")) console.log(`  ${name.padEnd(10)} start + stream to the end: ${await measure(web.client, ids[name]!, true, web.pid)}`);
      if (wanted(name, "start")) console.log(`  ${name.padEnd(10)} start only:                ${await measure(web.client, ids[name]!, false, web.pid)}`);
    }
    rmSync(root, { recursive: true, force: true });
  } finally {
    await web.stop();
    if (process.env.BENCH_OTLP) console.log(`  ${collector.received()}`);
    collector.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

void main();
