// The studio over HTTP, the path a person or a webhook meets: the built server (`node scripts/serve.mjs`, SQLite,
// every run and event persisted), authenticated with the access token as a script would be, 10 clients at once.
// For each workflow, two shapes: start a run and read its event stream to the end (like n8n's "answer when finished"
// webhook), and start only. Prints requests/s and latency percentiles; never asserts. Compare with n8n in the
// same sitting (../shared/anchors/n8n-bench.sh) and report the ratio, not the figure.
// Run after `npx next build`: npx tsx bench/http.bench.ts [seconds=10] [concurrency=10]
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";

const REPO_ROOT = path.resolve(import.meta.dirname, "..");
const SECONDS = Number(process.argv[2] ?? 10);
const CONCURRENCY = Number(process.argv[3] ?? 10);

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY * 2 });

interface Answer {
  status: number;
  body: string;
}

function request(port: number, token: string, method: string, urlPath: string, body?: unknown): Promise<Answer> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const outgoing = http.request(
      {
        host: "127.0.0.1",
        port,
        path: urlPath,
        method,
        agent,
        headers: { authorization: `Bearer ${token}`, ...(payload ? { "content-type": "application/json", "content-length": Buffer.byteLength(payload) } : {}) },
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (text += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body: text }));
        response.on("error", reject);
      },
    );
    outgoing.on("error", reject);
    outgoing.end(payload);
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function startStudio(): Promise<{ port: number; token: string; stop: () => void; dataDir: string }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "studio-http-bench-"));
  const port = await freePort();
  const token = randomBytes(24).toString("base64url");
  // BENCH_NEXT_START=1 serves through a bare `next start` instead of the launcher, to compare the two.
  const command = process.env.BENCH_NEXT_START ? [path.join(REPO_ROOT, "node_modules/next/dist/bin/next"), "start", "-H", "127.0.0.1", "-p", String(port)] : ["scripts/serve.mjs"];
  // BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/studio-prof" profiles the server under this load.
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, ...command], {
    cwd: REPO_ROOT,
    env: { ...process.env, STUDIO_DATA_DIR: dataDir, STUDIO_TOKEN: token, PORT: String(port), HOST: "127.0.0.1", STUDIO_PASSWORD: "" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (;;) {
    try {
      if ((await request(port, token, "GET", "/api/tools")).status === 200) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { port, token, dataDir, stop: () => child.kill("SIGTERM") };
}

function workflow(name: string, steps: number, root: string) {
  const tools = Array.from({ length: steps }, (_, index) => ({ id: `list${index}`, kind: "tool", tool: "list_dir", settings: { root }, arguments: { path: "." } }));
  const ids = ["in", ...tools.map((tool) => tool.id), "out"];
  return {
    name,
    nodes: [{ id: "in", kind: "input", fields: [] }, ...tools, { id: "out", kind: "output", value: "done" }],
    edges: ids.slice(1).map((target, index) => ({ id: `e${index}`, source: ids[index]!, target })),
  };
}

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? NaN;
}

async function measure(port: number, token: string, workflowId: string, untilFinished: boolean): Promise<string> {
  const latencies: number[] = [];
  const deadline = performance.now() + SECONDS * 1000;
  let failures = 0;
  const client = async () => {
    while (performance.now() < deadline) {
      const started = performance.now();
      const created = await request(port, token, "POST", `/api/workflows/${workflowId}/runs`, { inputs: {} });
      if (created.status !== 201) {
        failures += 1;
        continue;
      }
      if (untilFinished) {
        const { run } = JSON.parse(created.body) as { run: { id: string } };
        // The stream replays what happened and ends with `end` once the run has finished.
        const stream = await request(port, token, "GET", `/api/runs/${run.id}/events`);
        if (!stream.body.includes("event: end")) failures += 1;
      }
      latencies.push(performance.now() - started);
    }
  };
  const began = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, client));
  const elapsed = (performance.now() - began) / 1000;
  latencies.sort((left, right) => left - right);
  return `${(latencies.length / elapsed).toFixed(1)} req/s, p50 ${percentile(latencies, 0.5).toFixed(1)} ms, p99 ${percentile(latencies, 0.99).toFixed(1)} ms (${latencies.length} runs${failures ? `, ${failures} failed` : ""})`;
}

async function main(): Promise<void> {
const studio = await startStudio();
try {
  const root = mkdtempSync(path.join(os.tmpdir(), "studio-http-bench-root-"));
  const ids: Record<string, string> = {};
  for (const [name, steps] of [["minimal", 0], ["ten steps", 10]] as const) {
    const created = await request(studio.port, studio.token, "POST", "/api/workflows", workflow(`bench ${name}`, steps, root));
    ids[name] = (JSON.parse(created.body) as { workflow: { id: string } }).workflow.id;
  }
  console.log(`studio over HTTP, ${CONCURRENCY} clients, ${SECONDS} s each (node ${process.version}, ${os.cpus().length} cores)`);
  // BENCH_ONLY="minimal stream" measures one shape (a workflow name and "stream" or "start"), e.g. to profile it alone.
  const only = process.env.BENCH_ONLY ?? "";
  const wanted = (name: string, shape: "stream" | "start") => only === "" || (only.includes(name) && only.includes(shape));
  for (const name of Object.keys(ids)) {
    if (wanted(name, "stream")) console.log(`  ${name.padEnd(10)} start + stream to the end: ${await measure(studio.port, studio.token, ids[name]!, true)}`);
    if (wanted(name, "start")) console.log(`  ${name.padEnd(10)} start only:                ${await measure(studio.port, studio.token, ids[name]!, false)}`);
  }
  rmSync(root, { recursive: true, force: true });
} finally {
  studio.stop();
  agent.destroy();
  setTimeout(() => rmSync(studio.dataDir, { recursive: true, force: true }), 1000).unref();
}
}

void main();
