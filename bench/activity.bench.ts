// A workflow's 30-day activity and the runs list's totals at volume (issue 34): 100,000 runs of one workflow over the
// last 30 days, a model-usage row for each agent-ish run (two models, one priced), seeded into a scratch SQLite
// database (or PostgreSQL with BENCH_DATABASE_URL=postgresql://…, a fresh empty database of its own); then
// the built studio serving GET /api/workflows/{id}/activity, the Activity page's HTML, the runs list with its total,
// and the page drawn in Chromium (signed in with the access token) until the three charts have their bars and line.
// Target: the chart renders in under 1 s. Prints, never asserts.
// Run after `npx next build`: npx tsx bench/activity.bench.ts [runs=100000]
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS, DEFAULT_CHROMIUM_PATH } from "../lib/tools/builtin/web/chromium";
import { disconnectDatabase, openDatabase } from "../lib/persistence/database";
import { newId } from "../lib/persistence/ids";
import { startWeb, type WebProcess } from "./studio-process";

const RUNS = Number(process.argv[2] ?? 100_000);
const DAY_MS = 24 * 60 * 60 * 1000;
const STATUSES = ["succeeded", "succeeded", "succeeded", "failed", "cancelled"];
/** Spread over the last 30 days, the newest a minute ago. */
const SPAN_MS = 29.5 * DAY_MS;
const END = Date.now() - 60_000;
const runTime = (index: number) => END - SPAN_MS + Math.floor((index * SPAN_MS) / RUNS);

async function seed(url: string): Promise<string> {
  const database = openDatabase(url);
  try {
    const began = performance.now();
    const workflowId = newId(END - SPAN_MS);
    const versionId = newId(END - SPAN_MS + 1);
    await database.workflow.create({ data: { id: workflowId, name: "Busy agent", latestVersion: 1 } });
    const definition = { name: "Busy agent", description: "", nodes: [{ id: "in", kind: "input", fields: [] }], edges: [] };
    await database.workflowVersion.create({ data: { id: versionId, workflowId, version: 1, definition: JSON.stringify(definition) } });
    for (let offset = 0; offset < RUNS; offset += 2_000) {
      const count = Math.min(2_000, RUNS - offset);
      const indexes = Array.from({ length: count }, (_, position) => offset + position);
      const ids = new Map(indexes.map((index) => [index, newId(runTime(index))]));
      await database.run.createMany({
        data: indexes.map((index) => {
          const at = new Date(runTime(index));
          return {
            id: ids.get(index)!,
            workflowId,
            versionId,
            status: STATUSES[index % STATUSES.length]!,
            inputs: "{}",
            createdAt: at,
            startedAt: at,
            // Durations from 0.2 s to 20 s, so each day's median means something.
            finishedAt: new Date(runTime(index) + 200 + ((index * 7919) % 19_800)),
          };
        }),
      });
      await database.runModelUsage.createMany({
        data: indexes.map((index) => ({
          id: `usage-${index}`,
          runId: ids.get(index)!,
          provider: "openai",
          model: index % 4 === 0 ? "unpriced-model" : "gpt-4.1-mini",
          inputTokens: 1_000 + (index % 500),
          cachedInputTokens: index % 3 === 0 ? 400 : 0,
          outputTokens: 100 + (index % 50),
          calls: 1 + (index % 3),
        })),
      });
    }
    await database.modelPrice.create({ data: { id: "price-bench", provider: "openai", model: "gpt-4.1-mini", inputPerMillion: "0.4", cachedInputPerMillion: "0.1", outputPerMillion: "1.6" } });
    console.log(`seeded ${RUNS.toLocaleString("en")} runs (and as many usage rows) of one workflow in ${((performance.now() - began) / 1000).toFixed(1)} s`);
    return workflowId;
  } finally {
    await disconnectDatabase(database);
  }
}

async function medianOf(rounds: number, measure: () => Promise<number>): Promise<number> {
  await measure(); // the first request of a route loads its code
  const times: number[] = [];
  for (let round = 0; round < rounds; round += 1) times.push(await measure());
  return times.sort((left, right) => left - right)[Math.floor(rounds / 2)]!;
}

async function timed(web: WebProcess, urlPath: string): Promise<number> {
  const began = performance.now();
  const answer = await web.client.request("GET", urlPath);
  if (answer.status !== 200) throw new Error(`${urlPath} answered ${answer.status}: ${answer.body.slice(0, 300)}`);
  return performance.now() - began;
}

/** From navigation to the three charts drawn (the cost bars, the run bars, the median line), in Chromium. */
async function browserRender(web: WebProcess, urlPath: string): Promise<number[]> {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || DEFAULT_CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const context = await browser.newContext({ baseURL: `http://127.0.0.1:${web.client.port}`, extraHTTPHeaders: { authorization: `Bearer ${web.client.token}` } });
    const page = await context.newPage();
    // The renderer's own busy time (Chromium's Performance metrics): what the page costs the browser, apart from
    // the waiting a loaded machine adds to the clock.
    const devtools = await context.newCDPSession(page);
    await devtools.send("Performance.enable");
    const busy = async () => {
      const { metrics } = await devtools.send("Performance.getMetrics");
      const value = (name: string) => metrics.find((metric) => metric.name === name)?.value ?? NaN;
      return { task: value("TaskDuration") * 1000, script: value("ScriptDuration") * 1000, layout: value("LayoutDuration") * 1000 };
    };
    const times: number[] = [];
    for (let round = 0; round < 4; round += 1) {
      const began = performance.now();
      await page.goto(urlPath);
      await page.locator('[data-testid="chart-cost-per-day"] .recharts-bar-rectangle').first().waitFor();
      await page.locator('[data-testid="chart-runs-per-day"] .recharts-bar-rectangle').first().waitFor();
      await page.locator('[data-testid="chart-median-duration"] .recharts-line-curve').first().waitFor();
      times.push(performance.now() - began);
      const navigation = await page.evaluate(() => {
        const entry = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
        return { html: entry.responseEnd, domReady: entry.domContentLoadedEventEnd, load: entry.loadEventEnd };
      });
      const after = await busy();
      if (round > 0) {
        console.log(
          `  round ${round}: HTML in ${navigation.html.toFixed(0)} ms, DOM ready ${navigation.domReady.toFixed(0)} ms, loaded ${navigation.load.toFixed(0)} ms, ` +
            `charts drawn ${times.at(-1)!.toFixed(0)} ms; renderer busy ${after.task.toFixed(0)} ms (scripts ${after.script.toFixed(0)} ms, layout ${after.layout.toFixed(0)} ms)`,
        );
      }
    }
    // For scale, what the runs list (no chart) costs the same browser: to its first row, and the renderer's busy time.
    for (let round = 0; round < 2; round += 1) {
      const began = performance.now();
      await page.goto("/runs");
      await page.locator('tbody a[href^="/runs/"]').first().waitFor();
      await page.waitForLoadState("load");
      const after = await busy();
      if (round > 0) console.log(`  /runs for scale: first row ${(performance.now() - began).toFixed(0)} ms; renderer busy ${after.task.toFixed(0)} ms (scripts ${after.script.toFixed(0)} ms)`);
    }
    return times.slice(1); // the first loads the page's code into the browser and the server
  } finally {
    await browser.close();
  }
}

async function main(): Promise<void> {
  const postgres = process.env.BENCH_DATABASE_URL;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "studio-activity-bench-"));
  const env: Record<string, string> = { STUDIO_DATA_DIR: dataDir, ...(postgres ? { DATABASE_URL: postgres } : {}) };
  try {
    const first = await startWeb({ env });
    await first.stop();
    const workflowId = await seed(postgres ?? `file:${path.join(dataDir, "studio.db")}`);
    const web = await startWeb({ env });
    try {
      const activity = JSON.parse((await web.client.request("GET", `/api/workflows/${workflowId}/activity`)).body) as { total: { runs: number; usage: { costMicros: number | null; calls: number } } };
      console.log(`activity: ${activity.total.runs.toLocaleString("en")} runs, ${activity.total.usage.calls.toLocaleString("en")} model calls, cost ${activity.total.usage.costMicros} micro-dollars`);
      const rows: [string, string][] = [
        ["GET /api/workflows/{id}/activity (30 days)", `/api/workflows/${workflowId}/activity`],
        ["GET /workflows/{id}/activity (the page's HTML)", `/workflows/${workflowId}/activity`],
        ["GET /api/runs?workflowId= (a page and the filter's total)", `/api/runs?workflowId=${workflowId}`],
        ["GET /api/runs (every run's total)", "/api/runs"],
        ["GET /runs (the page's HTML)", "/runs"],
      ];
      for (const [label, urlPath] of rows) console.log(`${label.padEnd(60)} ${(await medianOf(5, () => timed(web, urlPath))).toFixed(0).padStart(6)} ms (median of 5)`);
      const renders = await browserRender(web, `/workflows/${workflowId}/activity`);
      console.log(`${"Activity page in Chromium, navigation to the charts drawn".padEnd(60)} ${renders.map((each) => each.toFixed(0)).join(", ")} ms (3 rounds; target under 1,000)`);
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
