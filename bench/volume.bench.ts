// The volume bench (issue 32): the server's memory and the delays a person meets at volume, every figure of the
// issue's targets printed together, from the built studio over HTTP, each case on a fresh web process (so one case's
// peak is not another's) on a fresh SQLite data folder:
//   1. a 50-column × 1,000-row SQL result (about 200 MB as the tool returns it), stored cut; and again with the
//      workflow keeping full outputs, the whole downloaded;
//   2. 40 clients that open a run's 6.5 MB event stream and never read it;
//   3. pruning 100,000 finished runs (with their steps and events) while runs keep starting;
//   4. the lists (bench/lists.bench.ts, run as it is: 2,000 workflows and 100,000 runs listed).
// Targets: server RSS under 600 MB in each; a run's start delayed at most 50 ms by the pruning. Prints, never asserts.
// The run pages' figures (a 2,000-node run, a live page at 600 events/s) are bench/run-page.bench.ts's.
// Run after `npx next build`: npx tsx bench/volume.bench.ts [runs to prune=100000]   (VOLUME_ONLY=wide,slow-clients,pruning,lists: some)
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { disconnectDatabase, openDatabase } from "../lib/persistence/database";
import { newId } from "../lib/persistence/ids";
import { percentile, REPO_ROOT, startWeb, type WebProcess } from "./studio-process";

const PRUNED_RUNS = Number(process.argv[2] ?? 100_000);
const RSS_TARGET_MB = 600;

/** The process's resident memory now and at its peak, in MB (Linux). */
function memoryOf(pid: number): { rssMb: number; peakMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kilobytes = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, "m").exec(status)?.[1] ?? NaN);
  return { rssMb: kilobytes("VmRSS") / 1024, peakMb: kilobytes("VmHWM") / 1024 };
}

const mb = (value: number) => `${value.toFixed(0)} MB`;
const sizeOf = (bytes: number) => (bytes >= 1_000_000 ? `${(bytes / 1_000_000).toFixed(1)} MB` : `${(bytes / 1_000).toFixed(1)} KB`);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const summary: string[] = [];

/** A fresh data folder and a web process on it; both gone after `work`. */
async function withStudio<T>(name: string, work: (web: WebProcess, dataDir: string) => Promise<T>, prepare?: (dataDir: string) => Promise<void>): Promise<T> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `studio-volume-${name}-`));
  const env = { STUDIO_DATA_DIR: dataDir };
  try {
    if (prepare) {
      // A first start makes and migrates the database; what is seeded goes in while no studio runs.
      const first = await startWeb({ env });
      await first.stop();
      await prepare(dataDir);
    }
    // BENCH_NODE_ARGS="--trace-gc" BENCH_SERVER_OUTPUT=/tmp/server.log: how the server's heap went, read afterwards.
    const web = await startWeb({ env, nodeArgs: (process.env.BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean) });
    try {
      return await work(web, dataDir);
    } finally {
      if (process.env.BENCH_SERVER_OUTPUT) writeFileSync(`${process.env.BENCH_SERVER_OUTPUT}.${name}`, web.output());
      await web.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function waitForRun(web: WebProcess, runId: string): Promise<{ status: string; error: string | null }> {
  for (;;) {
    const { run } = await web.client.expect<{ run: { status: string; error: string | null } }>(200, "GET", `/api/runs/${runId}`);
    if (["succeeded", "failed", "cancelled"].includes(run.status)) return run;
    await pause(200);
  }
}

/** 1. The wide query: 50 columns of 2,000 hex characters, 1,000 rows (each row held twice by the tool: rows and rowValues). */
async function wideResult(keepFullOutputs: boolean): Promise<void> {
  const label = keepFullOutputs ? "wide SQL result, full output kept" : "wide SQL result (50 × 1,000)";
  await withStudio("wide", async (web, dataDir) => {
    const file = path.join(dataDir, "wide.db");
    const wide = new Database(file);
    wide.exec(`CREATE TABLE t (id INTEGER PRIMARY KEY); WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 1000) INSERT INTO t SELECT x FROM n;`);
    wide.close();
    await web.client.expect(201, "POST", "/api/secrets", { name: "WIDE_DB", value: `sqlite://${file}` });
    const columns = Array.from({ length: 50 }, (_, index) => `hex(zeroblob(1000)) AS c${index + 1}`).join(", ");
    const workflowId = await web.client.createWorkflow({
      name: label,
      mode: "bypass",
      keepFullOutputs,
      nodes: [
        { id: "in", kind: "input", fields: [] },
        { id: "db", kind: "tool", tool: "sql", operation: "query", arguments: { dsn: "${WIDE_DB}", sql: `SELECT id, ${columns} FROM t ORDER BY id`, limit: 1000 } },
        { id: "out", kind: "output", value: "{{ nodes.db.data.rowCount }} rows" },
      ],
      edges: [
        { id: "a", source: "in", target: "db" },
        { id: "b", source: "db", target: "out" },
      ],
    });
    const before = memoryOf(web.pid);
    const began = performance.now();
    const { run } = await web.client.expect<{ run: { id: string } }>(201, "POST", `/api/workflows/${workflowId}/runs`, { inputs: {} });
    const finished = await waitForRun(web, run.id);
    const runSeconds = (performance.now() - began) / 1000;
    const afterRun = memoryOf(web.pid);
    const pageBegan = performance.now();
    const page = await web.client.request("GET", `/runs/${run.id}`);
    const pageMs = performance.now() - pageBegan;
    const { run: detail } = await web.client.expect<{ run: { steps: { nodeId: string; output?: { truncated?: { notice: string; totalBytes: number } } }[] } }>(
      200,
      "GET",
      `/api/runs/${run.id}`,
    );
    const truncated = detail.steps.find((step) => step.nodeId === "db")?.output?.truncated;
    console.log(`\n${label}: run ${finished.status} in ${runSeconds.toFixed(1)} s${finished.error ? ` (${finished.error})` : ""}`);
    console.log(`  notice: ${truncated?.notice ?? "(none)"}`);
    console.log(`  run page: ${sizeOf(Buffer.byteLength(page.body))} of HTML in ${pageMs.toFixed(0)} ms (status ${page.status})`);
    let download = "";
    if (keepFullOutputs) {
      const downloadBegan = performance.now();
      const whole = await web.client.request("GET", `/api/runs/${run.id}/steps/db/output`, undefined, 300_000);
      download = `, download ${sizeOf(Buffer.byteLength(whole.body))} in ${((performance.now() - downloadBegan) / 1000).toFixed(1)} s (status ${whole.status})`;
    }
    const after = memoryOf(web.pid);
    console.log(`  server RSS: ${mb(before.rssMb)} before, ${mb(afterRun.peakMb)} at its peak during the run, ${mb(after.peakMb)} at its peak overall, ${mb(after.rssMb)} now${download}`);
    summary.push(`${label.padEnd(44)} peak ${mb(after.peakMb).padStart(7)}  now ${mb(after.rssMb).padStart(7)}`);
  });
}

/**
 * 2. A run whose events come to about 6.5 MB, made by one studio process; then, in a fresh one (so what making the
 * run left in memory is not counted), 40 clients that ask for its stream and never read it.
 */
async function nonReadingClients(): Promise<void> {
  let runId = "";
  const makeRun = async (dataDir: string) => {
    const first = await startWeb({ env: { STUDIO_DATA_DIR: dataDir } });
    try {
      // Seven Code steps each returning 0.9 MB of text: their node-succeeded events make a stream of about 6.5 MB.
      const steps = Array.from({ length: 7 }, (_, index) => ({ id: `big${index}`, kind: "code", code: `return "${index}".repeat(900000);` }));
      const ids = ["in", ...steps.map((step) => step.id)];
      const workflowId = await first.client.createWorkflow({
        name: "Big events",
        nodes: [{ id: "in", kind: "input", fields: [] }, ...steps],
        edges: ids.slice(1).map((target, index) => ({ id: `e${index}`, source: ids[index]!, target })),
      });
      runId = (await first.client.expect<{ run: { id: string } }>(201, "POST", `/api/workflows/${workflowId}/runs`, { inputs: {} })).run.id;
      await waitForRun(first, runId);
    } finally {
      await first.stop();
    }
  };
  await withStudio(
    "slow-clients",
    async (web) => {
      const stream = await web.client.request("GET", `/api/runs/${runId}/events`, undefined, 300_000);
      const streamBytes = Buffer.byteLength(stream.body);
      const before = memoryOf(web.pid);

      // Each asks for the whole stream from the start and reads nothing: the kernel's buffers fill, then the server's.
      const request = `GET /api/runs/${runId}/events HTTP/1.1\r\nHost: 127.0.0.1:${web.client.port}\r\nAuthorization: Bearer ${web.client.token}\r\nAccept: text/event-stream\r\n\r\n`;
      const sockets = await Promise.all(
        Array.from(
          { length: 40 },
          () =>
            new Promise<net.Socket>((resolve, reject) => {
              const socket = net.connect(web.client.port, "127.0.0.1", () => {
                socket.pause();
                socket.write(request);
                resolve(socket);
              });
              socket.on("error", reject);
            }),
        ),
      );
      let closedByServer = 0;
      for (const socket of sockets) socket.on("close", () => (closedByServer += 1));
      // Long enough for the server to have written all it will (it stops at its high-water mark per client).
      await pause(10_000);
      const during = memoryOf(web.pid);
      const letGo = closedByServer;
      for (const socket of sockets) socket.destroy();
      await pause(5_000);
      const after = memoryOf(web.pid);
      console.log(`\n40 clients not reading a ${sizeOf(streamBytes)} event stream (${letGo} let go by the server meanwhile):`);
      console.log(`  server RSS: ${mb(before.rssMb)} before (one client read it whole), ${mb(during.rssMb)} with them connected (peak ${mb(during.peakMb)}), ${mb(after.rssMb)} 5 s after they left`);
      summary.push(`${"40 clients not reading a 6.5 MB stream".padEnd(44)} peak ${mb(during.peakMb).padStart(7)}  now ${mb(after.rssMb).padStart(7)}`);
    },
    makeRun,
  );
}

/** 3. Pruning: `PRUNED_RUNS` finished runs, each with a step and three events, removed by retention while runs start. */
async function pruning(): Promise<void> {
  const seed = async (dataDir: string) => {
    const database = openDatabase(`file:${path.join(dataDir, "studio.db")}`);
    try {
      const began = performance.now();
      const old = Date.now() - 90 * 24 * 60 * 60 * 1000;
      const workflows = Array.from({ length: 20 }, (_, index) => ({ id: newId(old + index), versionId: newId(old + index) }));
      const definition = JSON.stringify({ name: "Seeded", description: "", nodes: [{ id: "in", kind: "input", fields: [] }, { id: "out", kind: "output", value: "done" }], edges: [{ id: "e", source: "in", target: "out" }] });
      await database.workflow.createMany({ data: workflows.map(({ id }, index) => ({ id, name: `Seeded ${index}`, latestVersion: 1, createdAt: new Date(old), updatedAt: new Date(old) })) });
      await database.workflowVersion.createMany({ data: workflows.map(({ id, versionId }) => ({ id: versionId, workflowId: id, version: 1, definition })) });
      for (let offset = 0; offset < PRUNED_RUNS; offset += 2_000) {
        const runs = Array.from({ length: Math.min(2_000, PRUNED_RUNS - offset) }, (_, position) => {
          const index = offset + position;
          const at = new Date(old + index * 1_000);
          const workflow = workflows[index % workflows.length]!;
          return { id: newId(old + index * 1_000), workflowId: workflow.id, versionId: workflow.versionId, status: "succeeded", inputs: "{}", output: '"done"', createdAt: at, startedAt: at, finishedAt: at, lastSeq: 3 };
        });
        await database.run.createMany({ data: runs });
        await database.step.createMany({ data: runs.map((run) => ({ id: newId(), runId: run.id, nodeId: "out", status: "succeeded", output: '{"content":"done"}' })) });
        await database.runEvent.createMany({
          data: runs.flatMap((run) => ["run-started", "node-succeeded", "run-finished"].map((type, seq) => ({ runId: run.id, seq: seq + 1, type, payload: "{}" }))),
        });
      }
      console.log(`\nseeded ${PRUNED_RUNS.toLocaleString("en")} finished runs (a step and 3 events each) in ${((performance.now() - began) / 1000).toFixed(1)} s`);
    } finally {
      await disconnectDatabase(database);
    }
  };
  await withStudio(
    "pruning",
    async (web) => {
      const workflowId = await web.client.createWorkflow({ name: "Starts while pruning", nodes: [{ id: "in", kind: "input", fields: [] }, { id: "out", kind: "output", value: "done" }], edges: [{ id: "e", source: "in", target: "out" }] });
      /** Starts one run every 50 ms until `until` resolves; each start's time to its 201. */
      const startsUntil = async (until: Promise<unknown>): Promise<number[]> => {
        let done = false;
        void until.then(() => (done = true));
        const times: number[] = [];
        while (!done) {
          const began = performance.now();
          await web.client.expect(201, "POST", `/api/workflows/${workflowId}/runs`, { inputs: {} });
          times.push(performance.now() - began);
          await pause(50);
        }
        return times.sort((left, right) => left - right);
      };
      const baseline = await startsUntil(pause(5_000));
      const before = memoryOf(web.pid);
      const removedLine = /retention removed (\d+) run/;
      const outputBefore = web.output().length;
      const pruned = (async () => {
        const began = performance.now();
        // Keep runs 30 days: every seeded run is 90 days old or more; the runs started here are kept.
        const asked = performance.now();
        await web.client.expect(200, "PUT", "/api/settings/retention", { keepDays: 30, keepLast: null, keepFailedDays: null });
        console.log(`  saving the setting (its answer counts what it would remove): ${(performance.now() - asked).toFixed(0)} ms`);
        while (!removedLine.test(web.output().slice(Math.max(0, outputBefore - 200)))) await pause(250);
        return (performance.now() - began) / 1000;
      })();
      const during = await startsUntil(pruned);
      const seconds = await pruned;
      const after = memoryOf(web.pid);
      const line = (times: number[]) =>
        `p50 ${percentile(times, 0.5).toFixed(1)} ms, p95 ${percentile(times, 0.95).toFixed(1)} ms, p99 ${percentile(times, 0.99).toFixed(1)} ms, max ${times[times.length - 1]!.toFixed(1)} ms (${times.length} starts, ${times.filter((time) => time > percentile(baseline, 0.5) + 50).length} over 50 ms more than the median before)`;
      console.log(`pruning ${web.output().match(removedLine)?.[1] ?? "?"} runs took ${seconds.toFixed(1)} s (from the setting saved, its 2 s wait included)`);
      console.log(`  a run's start (POST to 201), before: ${line(baseline)}`);
      console.log(`  a run's start while pruning:        ${line(during)}`);
      const delay = during[during.length - 1]! - percentile(baseline, 0.5);
      console.log(`  the longest delay the pruning added to a start: ${delay.toFixed(1)} ms (target: at most 50 ms)`);
      console.log(`  server RSS: ${mb(before.rssMb)} before, ${mb(after.peakMb)} at its peak, ${mb(after.rssMb)} now`);
      summary.push(`${`pruning ${PRUNED_RUNS.toLocaleString("en")} runs`.padEnd(44)} peak ${mb(after.peakMb).padStart(7)}  now ${mb(after.rssMb).padStart(7)}   start delayed ≤ ${delay.toFixed(0)} ms`);
    },
    seed,
  );
}

/** 4. The lists, by their own bench; its memory line goes into the summary. */
function lists(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "bench/lists.bench.ts"], { cwd: REPO_ROOT, stdio: ["ignore", "pipe", "inherit"] });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (text: string) => {
      output += text;
      process.stdout.write(text);
    });
    child.on("error", reject);
    child.on("exit", (code) => {
      const memory = /server RSS (\d+) MB now, (\d+) MB at its peak/.exec(output);
      summary.push(`${"2,000 workflows and 100,000 runs listed".padEnd(44)} peak ${(memory ? `${memory[2]} MB` : "?").padStart(7)}  now ${(memory ? `${memory[1]} MB` : "?").padStart(7)}`);
      if (code === 0) resolve();
      else reject(new Error(`bench/lists.bench.ts exited ${code}`));
    });
  });
}

async function main(): Promise<void> {
  // VOLUME_ONLY=wide,slow-clients,pruning,lists runs only those.
  const only = process.env.VOLUME_ONLY?.split(",");
  const wanted = (name: string) => !only || only.includes(name);
  if (wanted("wide")) {
    await wideResult(false);
    await wideResult(true);
  }
  if (wanted("slow-clients")) await nonReadingClients();
  if (wanted("pruning")) await pruning();
  if (wanted("lists")) {
    console.log("\nthe lists (bench/lists.bench.ts):");
    await lists();
  }
  console.log(`\nserver memory at volume (target: under ${RSS_TARGET_MB} MB each)`);
  for (const line of summary) console.log(`  ${line}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
