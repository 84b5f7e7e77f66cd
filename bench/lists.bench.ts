// The lists at volume (issue 32): 2,000 workflows and 100,000 runs seeded into a scratch SQLite database, then the
// built studio (`node scripts/serve.mjs`) serving /workflows and /runs: time to the first byte, to the first row and
// to the end of the HTML, its size, for the first page, a page deep in the list by cursor, and a search; the API's
// pages the same way; and the server's memory (RSS now, and its peak). Targets: first rows under 1.5 s, RSS under
// 600 MB. Prints, never asserts.
// Run after `npx next build`: npx tsx bench/lists.bench.ts [workflows=2000] [runs=100000]
import { readFileSync, mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { encodeListCursor } from "../lib/contracts/list-page";
import { disconnectDatabase, openDatabase } from "../lib/persistence/database";
import { newId } from "../lib/persistence/ids";
import { startWeb, type WebProcess } from "./studio-process";

const WORKFLOWS = Number(process.argv[2] ?? 2_000);
const RUNS = Number(process.argv[3] ?? 100_000);
const STATUSES = ["succeeded", "succeeded", "succeeded", "failed", "cancelled"];
const TRIGGERS = ["person", "webhook", "schedule", "cli"];
/** A run every 30 s, the newest now: 100,000 runs span about five weeks. */
const RUN_SPACING_MS = 30_000;

/** The seeded runs' creation times, oldest first (index i made at START + i * spacing). */
const START = Date.now() - RUNS * RUN_SPACING_MS;
const runTime = (index: number) => START + index * RUN_SPACING_MS;

async function seed(url: string): Promise<void> {
  const database = openDatabase(url);
  try {
    const began = performance.now();
    const workflows = Array.from({ length: WORKFLOWS }, (_, index) => ({ id: newId(START + index), versionId: newId(START + index), index }));
    const definition = (name: string) =>
      JSON.stringify({ name, description: "", nodes: [{ id: "in", kind: "input", fields: [] }, { id: "out", kind: "output", value: "done" }], edges: [{ id: "e", source: "in", target: "out" }] });
    for (let offset = 0; offset < workflows.length; offset += 500) {
      const batch = workflows.slice(offset, offset + 500);
      await database.workflow.createMany({
        data: batch.map(({ id, index }) => ({
          id,
          name: `Workflow ${String(index).padStart(4, "0")} ${index % 7 === 0 ? "nightly report" : index % 5 === 0 ? "webhook intake" : "sync"}`,
          description: `Seeded for the lists bench (${index}).`,
          latestVersion: 1,
          createdAt: new Date(START + index * 1000),
          updatedAt: new Date(START + index * 1000),
        })),
      });
      await database.workflowVersion.createMany({ data: batch.map(({ id, versionId, index }) => ({ id: versionId, workflowId: id, version: 1, definition: definition(`Workflow ${index}`) })) });
    }
    for (let offset = 0; offset < RUNS; offset += 2_000) {
      const count = Math.min(2_000, RUNS - offset);
      await database.run.createMany({
        data: Array.from({ length: count }, (_, position) => {
          const index = offset + position;
          const workflow = workflows[(index * 7919) % workflows.length]!;
          const at = new Date(runTime(index));
          const status = STATUSES[index % STATUSES.length]!;
          return {
            id: newId(runTime(index)),
            workflowId: workflow.id,
            versionId: workflow.versionId,
            status,
            inputs: "{}",
            output: status === "succeeded" ? '"done"' : null,
            error: status === "failed" ? "A step failed." : null,
            trigger: TRIGGERS[index % TRIGGERS.length]!,
            createdAt: at,
            startedAt: at,
            finishedAt: new Date(runTime(index) + 1_500),
          };
        }),
      });
    }
    console.log(`seeded ${WORKFLOWS} workflows and ${RUNS} runs in ${((performance.now() - began) / 1000).toFixed(1)} s`);
  } finally {
    await disconnectDatabase(database);
  }
}

interface Timing {
  status: number;
  firstByteMs: number;
  /** When the first row (its marker) arrived; NaN when none did. */
  firstRowMs: number;
  totalMs: number;
  bytes: number;
}

/** GETs `urlPath` and times its first byte, the first chunk holding `rowMarker`, and its end. */
function timeRequest(web: WebProcess, urlPath: string, rowMarker: string): Promise<Timing> {
  return new Promise((resolve, reject) => {
    const began = performance.now();
    let firstByteMs = NaN;
    let firstRowMs = NaN;
    let text = "";
    let bytes = 0;
    const outgoing = http.get({ host: "127.0.0.1", port: web.client.port, path: urlPath, headers: { authorization: `Bearer ${web.client.token}` } }, (response) => {
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        if (Number.isNaN(firstByteMs)) firstByteMs = performance.now() - began;
        bytes += Buffer.byteLength(chunk);
        // Keep only a tail to find a marker cut between chunks.
        text = (text.slice(-200) + chunk);
        if (Number.isNaN(firstRowMs) && text.includes(rowMarker)) firstRowMs = performance.now() - began;
      });
      response.on("end", () => resolve({ status: response.statusCode ?? 0, firstByteMs, firstRowMs, totalMs: performance.now() - began, bytes }));
      response.on("error", reject);
    });
    outgoing.on("error", reject);
  });
}

/** The process's resident memory now and at its peak, in MB (Linux). */
function memoryOf(pid: number): { rssMb: number; peakMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kilobytes = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, "m").exec(status)?.[1] ?? NaN);
  return { rssMb: kilobytes("VmRSS") / 1024, peakMb: kilobytes("VmHWM") / 1024 };
}

const ms = (value: number) => (Number.isNaN(value) ? "—" : `${value.toFixed(0)} ms`);
const size = (bytes: number) => (bytes > 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(2)} MB` : `${(bytes / 1024).toFixed(1)} kB`);

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "studio-lists-bench-"));
  const env = { STUDIO_DATA_DIR: dataDir };
  try {
    // A first start makes and migrates the database (and its owner); the seed goes in while no studio runs.
    const first = await startWeb({ env });
    await first.stop();
    await seed(`file:${path.join(dataDir, "studio.db")}`);

    const web = await startWeb({ env });
    try {
      const deepRun = Math.floor(RUNS / 2);
      const runCursor = encodeListCursor({ sort: "createdAt", direction: "desc", value: runTime(deepRun), id: newId(runTime(deepRun)) });
      const workflowCursor = encodeListCursor({ sort: "name", direction: "asc", value: "Workflow 1500", id: "0" });
      const cases: [string, string, string][] = [
        ["/workflows, first page", "/workflows", 'href="/workflows/'],
        ["/workflows, by name from 1500 (cursor)", `/workflows?sort=name&direction=asc&cursor=${workflowCursor}`, 'href="/workflows/'],
        ["/workflows, search 'nightly'", "/workflows?search=nightly", 'href="/workflows/'],
        ["/runs, first page", "/runs", 'href="/runs/'],
        [`/runs, ${deepRun.toLocaleString("en")} runs deep (cursor)`, `/runs?cursor=${runCursor}`, 'href="/runs/'],
        ["/runs, failed, webhook", "/runs?status=failed&trigger=webhook", 'href="/runs/'],
        ["/runs, search 'nightly'", "/runs?search=nightly", 'href="/runs/'],
        ["GET /api/runs, first page", "/api/runs", '"id"'],
        [`GET /api/runs, ${deepRun.toLocaleString("en")} deep`, `/api/runs?cursor=${runCursor}`, '"id"'],
        ["GET /api/workflows, first page", "/api/workflows", '"id"'],
        ["GET /api/workflows/choices", "/api/workflows/choices", '"id"'],
      ];
      // One warm-up of each path (the first request of a route loads its code), then the median of three.
      console.log(`\n${"request".padEnd(44)} ${"status".padEnd(6)} ${"first byte".padStart(10)} ${"first row".padStart(10)} ${"whole".padStart(9)} ${"size".padStart(10)}`);
      for (const [label, urlPath, marker] of cases) {
        await timeRequest(web, urlPath, marker);
        const timings: Timing[] = [];
        for (let round = 0; round < 3; round += 1) timings.push(await timeRequest(web, urlPath, marker));
        timings.sort((left, right) => left.totalMs - right.totalMs);
        const median = timings[1]!;
        console.log(`${label.padEnd(44)} ${String(median.status).padEnd(6)} ${ms(median.firstByteMs).padStart(10)} ${ms(median.firstRowMs).padStart(10)} ${ms(median.totalMs).padStart(9)} ${size(median.bytes).padStart(10)}`);
      }
      // What the pages say they hold: the count above each table.
      for (const urlPath of ["/workflows", "/runs", "/runs?status=failed"]) {
        const page = await web.client.request("GET", urlPath);
        const count = /data-testid="list-count"><span>([^<]+)<\/span>/.exec(page.body)?.[1] ?? "no count found";
        console.log(`${urlPath}: "${count}"`);
      }
      // Ten people opening each list at once.
      const began = performance.now();
      await Promise.all(Array.from({ length: 10 }, (_, index) => timeRequest(web, index % 2 ? "/runs" : "/workflows", "href=")));
      console.log(`10 concurrent first pages (5 × /runs, 5 × /workflows): ${ms(performance.now() - began)} for all`);
      const { rssMb, peakMb } = memoryOf(web.pid);
      console.log(`server RSS ${rssMb.toFixed(0)} MB now, ${peakMb.toFixed(0)} MB at its peak (target: under 600 MB)`);
    } finally {
      await web.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
