// The studio scaled out: how many runs a second it completes with 1, 2 and 4 workers on PostgreSQL (one web
// process, STUDIO_ROLE=web, that only serves), against the embedded SQLite studio (one `npm start` process), and
// how long a person's decision takes to resume a parked run on another process. Each configuration starts on a
// fresh database; prints one row per configuration, the scaling ratio and the core count; never asserts.
//
//   runs/s       10 clients start runs over HTTP for BENCH_SECONDS (15); then we wait until every started run has
//                finished. Runs finished / (first start → last `finishedAt` in the database): what the workers
//                complete, not what the web process accepts (on PostgreSQL starting a run only queues a job).
//                1-step: input → output; 10-step: ten read-only list_dir steps in a chain (bench/http.bench.ts's).
//   decision →   BENCH_DECISIONS (100) runs each wait for approval of a write_file step, all parked (awaiting
//                input, holding no worker); we decide them one at a time through the web process, so this is latency,
//                not throughput: from sending the decision to the stored `approval-decided` event (the worker that
//                picked the run up again wrote it), and to the run's last event. Same machine clock throughout.
//   cost         per configuration and workflow: CPU ms per completed run in the web process, the workers and
//                PostgreSQL's backends of the configuration's database (from /proc), and PostgreSQL's commits and rows
//                written per run (pg_stat_database): the figures issue 35 drives down, steadier than runs/s here.
//                When the server loads pg_stat_statements (shared_preload_libraries; it adds a little to every
//                statement), also the statements per run by kind: the studio's own (prepared, on the hot path),
//                Prisma's, and BEGIN/COMMIT. Each is a round trip: nothing is pipelined.
//   busy core    BENCH_BUSY_CORE=1 (the default; 0 leaves it out) runs the 1-worker configuration again beside a
//                process that only spins (a core's worth of CPU, no memory or I/O): what a run costs once the machine
//                is saturated by something that is not the studio, beside what a second worker costs (issue 35:
//                where the second worker's cost comes from, the studio's design or a full machine).
//
// BENCH_PROFILE=1 adds a pass with 4 workers on the 10-step workflow (BENCH_PROFILE_WORKERS, BENCH_PROFILE_STEPS: 0 for 1-step), the web process and one worker under
// `node --cpu-prof`, and prints where their CPU went (self time) and the machine's CPU split, to say what bounds
// the scaling ratio. It is a pass of its own so the profiler's overhead stays out of the table.
//
// Needs a built studio (`npx next build`) and PostgreSQL at TEST_POSTGRES_URL (default postgresql://postgres@127.0.0.1:5432,
// trust auth). Run: npx tsx bench/scale-out.bench.ts      Knobs: BENCH_SECONDS, BENCH_DECISIONS, BENCH_PROFILE=1,
// BENCH_WORKERS (the worker counts, default "1 2 4"), BENCH_TWO_WEB_WORKERS (worker counts behind two web processes,
// default "2"; "" for none), BENCH_SQLITE=0 (leave out SQLite embedded), BENCH_WORKER_CONCURRENCY (each worker's
// STUDIO_WORKER_CONCURRENCY, the runs it drives at once; default the studio's).
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase, providerOf, type StudioDatabase } from "@/lib/persistence";
import { createEmptyPostgresDatabase, dropPostgresDatabase } from "@/lib/persistence/temp-database";
import { writeFileWorkflow } from "../tests/api/fixtures";
import { machineCpuSeconds, monotonicMicros, processCpuSeconds, summarizeProfile, type ProfileSummary } from "./cpu-profile";
import { REPO_ROOT, listDirChain, percentile, startWeb, startWorker, type BenchProcess, type WebProcess } from "./studio-process";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const DECISIONS = Number(process.env.BENCH_DECISIONS ?? 100);
const PROFILE = process.env.BENCH_PROFILE === "1";
/** The profile pass's workers and workflow (its chain of list_dir steps: 0 is the 1-step workflow). */
const PROFILE_WORKERS = Number(process.env.BENCH_PROFILE_WORKERS ?? 4);
const PROFILE_STEPS = Number(process.env.BENCH_PROFILE_STEPS ?? 10);
const CLIENTS = 10;
const WORKER_COUNTS = (process.env.BENCH_WORKERS ?? "1 2 4").split(/[\s,]+/).filter(Boolean).map(Number);
/** The worker counts to run behind two web processes (the README's several web processes behind one address). */
const TWO_WEB_WORKER_COUNTS = (process.env.BENCH_TWO_WEB_WORKERS ?? "2").split(/[\s,]+/).filter(Boolean).map(Number);
const WITH_SQLITE = process.env.BENCH_SQLITE !== "0";
const WITH_BUSY_CORE = process.env.BENCH_BUSY_CORE !== "0";
const WORKER_CONCURRENCY: Record<string, string> = process.env.BENCH_WORKER_CONCURRENCY ? { STUDIO_WORKER_CONCURRENCY: process.env.BENCH_WORKER_CONCURRENCY } : {};
const FINISHED = ["succeeded", "failed", "cancelled"];

/** Undo steps for everything started or made, run last-first in `finally` and on Ctrl-C, so a failure leaves nothing behind. */
const undo: (() => Promise<void> | void)[] = [];

async function undoAll(): Promise<void> {
  for (const step of undo.splice(0).reverse()) {
    try {
      await step();
    } catch (error) {
      console.error("cleanup:", error);
    }
  }
}

/** A studio under test: the processes that serve the API, the workers (none on SQLite) and a client on its database. */
interface Studio {
  /** The first web process: workflows are made and decisions sent through it. */
  web: WebProcess;
  /** Every web process (the first among them); the load's clients are spread over them, as a balancer in front would. */
  webs: WebProcess[];
  workers: BenchProcess[];
  database: StudioDatabase;
  /** A folder for the workflows' files (list_dir's root, write_file's notes). */
  work: string;
}

/** A fresh folder under the system's temp folder, removed by `undoAll`. */
function tempFolder(): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), "studio-scale-bench-"));
  undo.push(() => rmSync(folder, { recursive: true, force: true }));
  return folder;
}

function subfolder(parent: string, name: string): string {
  const folder = path.join(parent, name);
  mkdirSync(folder, { recursive: true });
  return folder;
}

function connect(url: string): StudioDatabase {
  const database = openDatabase(url);
  undo.push(() => database.$disconnect());
  return database;
}

/** One process that serves and drives runs, on a SQLite file in its data folder: the embedded default. */
async function startSqliteStudio(): Promise<Studio> {
  const folder = tempFolder();
  const data = subfolder(folder, "data");
  const url = `file:${path.join(data, "studio.db")}`;
  const web = await startWeb({ env: { STUDIO_DATA_DIR: data, DATABASE_URL: url }, maxSockets: CLIENTS * 2 });
  undo.push(() => web.stop());
  return { web, webs: [web], workers: [], database: connect(url), work: subfolder(folder, "work") };
}

/**
 * `webs` web processes that only serve (one by default) and `workers` workers on a fresh PostgreSQL database, sharing
 * its secret key. `profileDir` puts the first web process and the first worker under `--cpu-prof`, writing
 * web.cpuprofile and worker.cpuprofile there when they stop.
 */
async function startPostgresStudio(workers: number, { profileDir, webs = 1 }: { profileDir?: string; webs?: number } = {}): Promise<Studio> {
  const folder = tempFolder();
  const url = await createEmptyPostgresDatabase();
  undo.push(() => dropPostgresDatabase(url));
  await createStatementStatistics(url);
  const shared = { DATABASE_URL: url, STUDIO_SECRET_KEY: randomBytes(32).toString("base64") };
  const profiled = (name: string) => (profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=${name}.cpuprofile`] : []);
  // The web process first: it migrates the empty database, which the workers then find done.
  const web = await startWeb({ env: { ...shared, STUDIO_ROLE: "web", STUDIO_DATA_DIR: subfolder(folder, "web") }, nodeArgs: profiled("web"), maxSockets: CLIENTS * 2 });
  undo.push(() => web.stop());
  const moreWebs = await Promise.all(
    Array.from({ length: webs - 1 }, async (_, index) => {
      const another = await startWeb({ env: { ...shared, STUDIO_ROLE: "web", STUDIO_DATA_DIR: subfolder(folder, `web-${index + 2}`) }, maxSockets: CLIENTS * 2 });
      undo.push(() => another.stop());
      return another;
    }),
  );
  const started = await Promise.all(
    Array.from({ length: workers }, async (_, index) => {
      const worker = await startWorker({ ...shared, ...WORKER_CONCURRENCY, STUDIO_DATA_DIR: subfolder(folder, `worker-${index}`) }, index === 0 ? profiled("worker") : []);
      undo.push(() => worker.stop());
      return worker;
    }),
  );
  return { web, webs: [web, ...moreWebs], workers: started, database: connect(url), work: subfolder(folder, "work") };
}

/** A process that keeps one core busy and touches nothing else, for as long as the configuration runs. */
function spinOneCore(): void {
  const spinner = spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" });
  undo.push(() => {
    spinner.kill("SIGKILL");
  });
}

/** pg_stat_statements' view in the configuration's database, when the server has the module (its counts need it loaded). */
async function createStatementStatistics(url: string): Promise<void> {
  const database = openDatabase(url);
  try {
    await database.$executeRawUnsafe("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
  } catch {
    // Not installed on this server: the bench prints no statement counts.
  } finally {
    await database.$disconnect();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits (polling the database) until `check` holds, failing when nothing moved for a minute: a stuck run, not a slow one. */
async function waitForProgress(what: string, progress: () => Promise<{ done: boolean; count: number }>): Promise<void> {
  let last = -1;
  let movedAt = Date.now();
  for (;;) {
    const { done, count } = await progress();
    if (done) return;
    if (count !== last) [last, movedAt] = [count, Date.now()];
    if (Date.now() - movedAt > 60_000) throw new Error(`No progress for a minute waiting for ${what} (at ${count}).`);
    await sleep(250);
  }
}

interface Throughput {
  runsPerSecond: number;
  runs: number;
  failed: number;
  /** The share of the machine's CPU in use from the first start to the last finish; null off Linux. */
  machineBusy: number | null;
  cost: CostPerRun;
}

/**
 * What a completed run cost, steadier on a shared machine than runs/s (issue 35): CPU milliseconds in the web
 * process, in the workers, and in PostgreSQL's backends serving this configuration's database (their /proc times;
 * other databases' backends are not counted), and PostgreSQL's commits and rows written per run
 * (pg_stat_database; the bench's own polling, a count every 250 ms, is in it too).
 */
interface CostPerRun {
  webMs: number;
  workersMs: number;
  postgresMs: number | null;
  commits: number | null;
  rowsWritten: number | null;
  /** Statements per run by kind (STATEMENT_KINDS); null when pg_stat_statements is not loaded. */
  statements: Record<StatementKind, number> | null;
}

const STATEMENT_KINDS = ["ours", "Prisma", "BEGIN/COMMIT"] as const;
type StatementKind = (typeof STATEMENT_KINDS)[number];

/** Which side sent a statement, by its text: Prisma names every table with its schema, the studio's own SQL does not. */
function statementKind(query: string): StatementKind {
  if (/^\s*(BEGIN|COMMIT|ROLLBACK|START TRANSACTION|SAVEPOINT|RELEASE)\b/i.test(query)) return "BEGIN/COMMIT";
  return query.includes('"public".') ? "Prisma" : "ours";
}

interface PostgresCounters {
  backends: Map<number, number>;
  commits: number;
  rowsWritten: number;
  /** Calls so far of each statement this database ran (pg_stat_statements' queryid → kind and calls); null without it. */
  statements: Map<string, { kind: StatementKind; calls: number }> | null;
}

/** pg_stat_statements' counts for this database, or null when the server does not load the module. */
async function statementCalls(database: StudioDatabase): Promise<Map<string, { kind: StatementKind; calls: number }> | null> {
  try {
    const rows = await database.$queryRawUnsafe<{ id: string; query: string; calls: bigint }[]>(
      "SELECT queryid::text AS id, query, calls FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())",
    );
    return new Map(rows.map((row) => [row.id, { kind: statementKind(row.query), calls: Number(row.calls) }]));
  } catch {
    return null;
  }
}

/** This database's backends with their CPU seconds so far, and its commits and rows written so far; null on SQLite. */
async function postgresCounters(database: StudioDatabase, known: Map<number, number> = new Map()): Promise<PostgresCounters | null> {
  if (providerOf(database) !== "postgresql") return null;
  const backends = new Map(known);
  const rows = await database.$queryRawUnsafe<{ pid: number }[]>("SELECT pid FROM pg_stat_activity WHERE datname = current_database()");
  for (const { pid } of rows) backends.set(pid, processCpuSeconds(pid) ?? backends.get(pid) ?? 0);
  for (const pid of known.keys()) backends.set(pid, processCpuSeconds(pid) ?? known.get(pid)!);
  const [stats] = await database.$queryRawUnsafe<{ commits: bigint; written: bigint }[]>(
    "SELECT xact_commit AS commits, tup_inserted + tup_updated + tup_deleted AS written FROM pg_stat_database WHERE datname = current_database()",
  );
  return { backends, commits: Number(stats?.commits ?? 0), rowsWritten: Number(stats?.written ?? 0), statements: await statementCalls(database) };
}

/** Statements per run by kind between two counts. */
function statementsPerRun(before: PostgresCounters["statements"], after: PostgresCounters["statements"], runs: number): Record<StatementKind, number> | null {
  if (!before || !after) return null;
  const perKind = Object.fromEntries(STATEMENT_KINDS.map((kind) => [kind, 0])) as Record<StatementKind, number>;
  for (const [id, { kind, calls }] of after) perKind[kind] += (calls - (before.get(id)?.calls ?? 0)) / runs;
  return perKind;
}

/** Starts counting what the studio's processes and its database spend; the function returned stops and divides by `runs`. */
async function costMeter(studio: Studio): Promise<(runs: number) => Promise<CostPerRun>> {
  const processes = () => [...studio.webs, ...studio.workers].map((child) => processCpuSeconds(child.pid) ?? NaN);
  const before = processes();
  const postgresBefore = await postgresCounters(studio.database);
  return async (runs) => {
    const after = processes();
    // PostgreSQL publishes a backend's counts at most once a second: wait for the last ones.
    if (postgresBefore) await sleep(1_200);
    const postgresAfter = postgresBefore ? await postgresCounters(studio.database, postgresBefore.backends) : null;
    const spent = after.map((value, index) => (value - before[index]!) * 1000);
    const webMs = spent.slice(0, studio.webs.length).reduce((sum, value) => sum + value, 0);
    const workers = spent.slice(studio.webs.length);
    let postgresMs: number | null = null;
    if (postgresBefore && postgresAfter) {
      postgresMs = 0;
      // A backend that came during the phase counts from zero: it started for this work.
      for (const [pid, seconds] of postgresAfter.backends) postgresMs += (seconds - (postgresBefore.backends.get(pid) ?? 0)) * 1000;
    }
    return {
      webMs: webMs / runs,
      workersMs: workers.reduce((sum, value) => sum + value, 0) / runs,
      postgresMs: postgresMs === null ? null : postgresMs / runs,
      commits: postgresBefore && postgresAfter ? (postgresAfter.commits - postgresBefore.commits) / runs : null,
      rowsWritten: postgresBefore && postgresAfter ? (postgresAfter.rowsWritten - postgresBefore.rowsWritten) / runs : null,
      statements: postgresBefore && postgresAfter ? statementsPerRun(postgresBefore.statements, postgresAfter.statements, runs) : null,
    };
  };
}

/** CLIENTS clients start runs of `workflowId` back to back for SECONDS; every run is then awaited to its end. */
async function measureThroughput(studio: Studio, workflowId: string): Promise<Throughput> {
  const cpuBefore = machineCpuSeconds();
  const cost = await costMeter(studio);
  const deadline = performance.now() + SECONDS * 1000;
  const firstStart = Date.now();
  let started = 0;
  const client = async (index: number) => {
    const { client: web } = studio.webs[index % studio.webs.length]!;
    while (performance.now() < deadline) {
      await web.expect(201, "POST", `/api/workflows/${workflowId}/runs`, { inputs: {} });
      started += 1;
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, (_, index) => client(index)));
  const where = { workflowId, status: { in: FINISHED } };
  await waitForProgress(`${started} runs to finish`, async () => {
    const count = await studio.database.run.count({ where });
    return { done: count >= started, count };
  });
  const cpuAfter = machineCpuSeconds();
  const lastFinish = (await studio.database.run.aggregate({ where, _max: { finishedAt: true } }))._max.finishedAt!.getTime();
  const failed = await studio.database.run.count({ where: { workflowId, status: { not: "succeeded" } } });
  return {
    runsPerSecond: started / ((lastFinish - firstStart) / 1000),
    runs: started,
    failed,
    machineBusy: cpuBefore && cpuAfter ? (cpuAfter.busy - cpuBefore.busy) / (cpuAfter.total - cpuBefore.total) : null,
    cost: await cost(started),
  };
}

interface EventLine {
  type: string;
  createdAt: string;
}

/** The run's events from its stream, which replays them and ends once the run has finished. */
async function eventsToTheEnd(web: WebProcess, runId: string): Promise<EventLine[]> {
  const stream = await web.client.request("GET", `/api/runs/${runId}/events`);
  if (!stream.body.includes("event: end")) throw new Error(`The event stream of run ${runId} did not end: ${stream.body.slice(-300)}`);
  return stream.body
    .split("\n")
    .filter((line) => line.startsWith("data: {") && line.includes('"createdAt"'))
    .map((line) => JSON.parse(line.slice("data: ".length)) as EventLine);
}

interface DecisionLatencies {
  /** Milliseconds from sending each decision to the stored approval-decided event, and to the run's last event. */
  resumed: number[];
  finished: number[];
}

/** Parks DECISIONS runs on an approval, then decides them one at a time and times each resume. */
async function measureDecisions(studio: Studio): Promise<DecisionLatencies> {
  const { client } = studio.web;
  const workflowId = await client.createWorkflow(writeFileWorkflow(studio.work, { name: "bench decision" }));
  const runIds: string[] = [];
  let numbered = 0;
  // A file of its own per run, numbered before the request goes out: an approval's digest covers the file as it
  // was, so a run writing a file another run wrote first would ask again instead of finishing.
  const next = async () => {
    for (let index = numbered++; index < DECISIONS; index = numbered++) {
      const inputs = { text: "bench", file: `note-${index}.txt` };
      const { run } = await client.expect<{ run: { id: string } }>(201, "POST", `/api/workflows/${workflowId}/runs`, { inputs });
      runIds.push(run.id);
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, next));
  await waitForProgress(`${runIds.length} runs to park`, async () => {
    const count = await studio.database.run.count({ where: { workflowId, status: "awaiting_input" } });
    return { done: count >= runIds.length, count };
  });
  const approvals = await studio.database.approval.findMany({ where: { runId: { in: runIds }, status: "pending" }, select: { id: true, runId: true, digest: true } });
  const latencies: DecisionLatencies = { resumed: [], finished: [] };
  for (const approval of approvals) {
    const sent = Date.now();
    await client.expect(200, "POST", `/api/approvals/${approval.id}`, { decision: "once", digest: approval.digest });
    const events = await eventsToTheEnd(studio.web, approval.runId);
    const decided = events.find((event) => event.type === "approval-decided");
    const last = events.at(-1);
    if (!decided || last?.type !== "run-succeeded") throw new Error(`Run ${approval.runId} did not resume and succeed: ${events.map((event) => event.type).join(", ")}`);
    latencies.resumed.push(Date.parse(decided.createdAt) - sent);
    latencies.finished.push(Date.parse(last.createdAt) - sent);
  }
  return latencies;
}

interface Row {
  name: string;
  minimal: Throughput;
  tenSteps: Throughput;
  decisions: DecisionLatencies;
}

/** The three measurements on one studio, stopped and removed afterwards whatever happens. */
async function benchConfiguration(name: string, start: () => Promise<Studio>): Promise<Row> {
  try {
    const studio = await start();
    const minimalId = await studio.web.client.createWorkflow(listDirChain("bench 1 step", 0, studio.work, { mode: "bypass" }));
    const tenStepsId = await studio.web.client.createWorkflow(listDirChain("bench 10 steps", 10, studio.work, { mode: "bypass" }));
    const minimal = await measureThroughput(studio, minimalId);
    const tenSteps = await measureThroughput(studio, tenStepsId);
    const decisions = await measureDecisions(studio);
    const row = { name, minimal, tenSteps, decisions };
    console.log(formatRow(row));
    return row;
  } finally {
    // Configurations run one after another, so what is left to undo is this one's: the next starts on a quiet machine.
    await undoAll();
  }
}

const milliseconds = (values: number[]) => {
  const sorted = [...values].sort((left, right) => left - right);
  return `${percentile(sorted, 0.5).toFixed(0)} / ${percentile(sorted, 0.95).toFixed(0)}`;
};
const perSecond = (throughput: Throughput) => `${throughput.runsPerSecond.toFixed(1)}${throughput.failed ? ` (${throughput.failed} failed)` : ""}`;
const busy = (throughput: Throughput) => (throughput.machineBusy === null ? "?" : `${Math.round(throughput.machineBusy * 100)}%`);
const COLUMNS = [30, 15, 16, 30, 31, 13];

function line(cells: string[]): string {
  return cells.map((cell, index) => (index === 0 ? cell.padEnd(COLUMNS[0]!) : cell.padStart(COLUMNS[index]!))).join("");
}

function formatRow(row: Row): string {
  return line([`  ${row.name}`, perSecond(row.minimal), perSecond(row.tenSteps), milliseconds(row.decisions.resumed), milliseconds(row.decisions.finished), busy(row.tenSteps)]);
}

function printHeader(): void {
  const concurrency = process.env.BENCH_WORKER_CONCURRENCY ? `${process.env.BENCH_WORKER_CONCURRENCY} runs at once per worker` : "the default runs at once per worker";
  console.log(`scale-out: ${CLIENTS} clients, ${SECONDS} s per workflow, ${DECISIONS} decisions, ${concurrency} (node ${process.version}, ${os.availableParallelism()} cores)`);
  console.log(line(["  configuration", "1-step runs/s", "10-step runs/s", "decision→resumed p50/p95 ms", "decision→finished p50/p95 ms", "CPU 10-step"]));
}

/** Per configuration and workflow: CPU milliseconds per completed run by process kind, and PostgreSQL's commits and rows written per run. */
function printCosts(rows: Row[]): void {
  const ms = (value: number | null) => (value === null ? "–" : value.toFixed(2));
  const count = (value: number | null) => (value === null ? "–" : value.toFixed(1));
  console.log("cost per completed run (CPU ms: web + workers + PostgreSQL = all; PostgreSQL commits and rows written)");
  for (const row of rows) {
    for (const [workflow, { cost }] of [["1-step", row.minimal], ["10-step", row.tenSteps]] as const) {
      const all = cost.webMs + cost.workersMs + (cost.postgresMs ?? 0);
      console.log(
        `  ${`${row.name}, ${workflow}`.padEnd(40)} ${ms(cost.webMs).padStart(6)} + ${ms(cost.workersMs).padStart(6)} + ${ms(cost.postgresMs).padStart(6)} = ${ms(all).padStart(6)} ms;` +
          ` ${count(cost.commits).padStart(5)} commits, ${count(cost.rowsWritten).padStart(6)} rows written` +
          (cost.statements ? `; statements ${STATEMENT_KINDS.map((kind) => `${kind} ${cost.statements![kind].toFixed(1)}`).join(", ")}` : ""),
      );
    }
  }
}

function printScaling(rows: Row[]): void {
  const one = rows.find((row) => row.name === "PostgreSQL, 1 worker");
  if (!one) return;
  for (const row of rows.filter((row) => row.name.startsWith("PostgreSQL") && row !== one)) {
    const ratio = (pick: (row: Row) => Throughput) => (pick(row).runsPerSecond / pick(one).runsPerSecond).toFixed(2);
    console.log(`scaling ${row.name.replace("PostgreSQL, ", "")} ÷ 1 worker: 1-step ${ratio((r) => r.minimal)}x, 10-step ${ratio((r) => r.tenSteps)}x`);
  }
  console.log(`cores: ${os.availableParallelism()} (${os.cpus()[0]?.model ?? "unknown"}); the web process, the workers, PostgreSQL and this bench all share them`);
}

/** Prints the top of a profile: how busy the process was, its hottest functions and areas by self time. */
function printProfile(title: string, summary: ProfileSummary): void {
  const share = (ms: number) => `${((ms / summary.windowMs) * 100).toFixed(1).padStart(5)}%`;
  console.log(`  ${title}: busy ${share(summary.busyMs)} of ${(summary.windowMs / 1000).toFixed(1)} s`);
  console.log("    by area:     " + summary.areas.slice(0, 6).map((area) => `${area.name} ${share(area.ms).trim()}`).join(", "));
  // What moving to another Prisma would change at most: its runtime and query compiler's own time. (In the web
  // process its runtime is bundled into the .next chunks, so only the query compiler's WebAssembly counts there.)
  const prisma = summary.areas.filter((area) => /prisma/i.test(area.name));
  console.log(`    Prisma:      ${share(prisma.reduce((sum, area) => sum + area.ms, 0)).trim()} (${prisma.map((area) => area.name).join(", ") || "none sampled"})`);
  for (const entry of summary.functions.slice(0, 12)) console.log(`    ${share(entry.ms)}  ${entry.name}`);
}

/** A load again (default 4 workers, 10-step; BENCH_PROFILE_WORKERS, BENCH_PROFILE_STEPS), profiled: where the web process and a worker spend CPU, and the machine's split. */
async function profilePass(): Promise<void> {
  try {
    const profileDir = path.join(tempFolder(), "profiles");
    const studio = await startPostgresStudio(PROFILE_WORKERS, { profileDir });
    const workflowId = await studio.web.client.createWorkflow(listDirChain("bench profiled", PROFILE_STEPS, studio.work, { mode: "bypass" }));
    const ours = [studio.web, ...studio.workers];
    const cpu = () => ({ machine: machineCpuSeconds(), processes: ours.map((child) => processCpuSeconds(child.pid) ?? NaN), at: monotonicMicros() });
    const before = cpu();
    const throughput = await measureThroughput(studio, workflowId);
    const after = cpu();
    // SIGTERM: the processes stop gracefully, which is when --cpu-prof writes the profiles.
    await Promise.all(ours.map((child) => child.stop(30_000)));
    const workflow = PROFILE_STEPS === 0 ? "1-step" : `${PROFILE_STEPS}-step`;
    console.log(
      `profile: PostgreSQL, ${PROFILE_WORKERS} workers, ${workflow}, ${throughput.runsPerSecond.toFixed(1)} runs/s under the profiler (web process and worker 1 profiled)`,
    );
    printCpuSplit(before, after);
    for (const name of ["web", "worker"]) {
      const file = path.join(profileDir, `${name}.cpuprofile`);
      if (existsSync(file)) printProfile(name === "web" ? "web process" : "worker 1", summarizeProfile(file, before.at, after.at));
      else console.log(`  ${name}: no profile written (${file})`);
    }
  } finally {
    await undoAll();
  }
}

/** CPU seconds over the phase: web, workers, and the rest of the machine (PostgreSQL, this bench, anything else running). */
function printCpuSplit(before: { machine: ReturnType<typeof machineCpuSeconds>; processes: number[]; at: number }, after: typeof before): void {
  const seconds = (after.at - before.at) / 1e6;
  const used = after.processes.map((value, index) => value - before.processes[index]!);
  const [web = NaN, ...workers] = used;
  const workerTotal = workers.reduce((sum, value) => sum + value, 0);
  const capacity = seconds * os.availableParallelism();
  const machine = before.machine && after.machine ? after.machine.busy - before.machine.busy : NaN;
  const ofCapacity = (value: number) => `${value.toFixed(1)} s (${((value / capacity) * 100).toFixed(0)}%)`;
  console.log(
    `  CPU over ${seconds.toFixed(1)} s × ${os.availableParallelism()} cores = ${capacity.toFixed(1)} s: machine busy ${ofCapacity(machine)}; web ${ofCapacity(web)}, ` +
      `workers ${ofCapacity(workerTotal)} (${workers.map((value) => value.toFixed(1)).join(" + ")}), the rest (PostgreSQL, this bench, others) ${ofCapacity(machine - web - workerTotal)}`,
  );
}

async function main(): Promise<void> {
  if (!existsSync(path.join(REPO_ROOT, ".next/BUILD_ID"))) throw new Error("Build the studio first: npx next build");
  printHeader();
  const rows: Row[] = [];
  if (WITH_SQLITE) rows.push(await benchConfiguration("SQLite embedded", startSqliteStudio));
  for (const workers of WORKER_COUNTS) {
    rows.push(await benchConfiguration(`PostgreSQL, ${workers} worker${workers > 1 ? "s" : ""}`, () => startPostgresStudio(workers)));
  }
  if (WITH_BUSY_CORE) {
    rows.push(
      await benchConfiguration("PostgreSQL, 1 worker, busy core", async () => {
        const studio = await startPostgresStudio(1);
        spinOneCore();
        return studio;
      }),
    );
  }
  for (const workers of TWO_WEB_WORKER_COUNTS) {
    rows.push(await benchConfiguration(`PostgreSQL, 2 web, ${workers} worker${workers > 1 ? "s" : ""}`, () => startPostgresStudio(workers, { webs: 2 })));
  }
  printCosts(rows);
  printScaling(rows);
  if (PROFILE) await profilePass();
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    console.error(`${signal}: cleaning up`);
    void undoAll().finally(() => process.exit(130));
  });
}

main()
  .catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  })
  .finally(() => undoAll());
