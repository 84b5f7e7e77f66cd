// The editor beside bare React Flow, in one sitting, the way ../shared/anchors/react-flow.md measures: the
// anchor's own page (rf-bench-page.tsx, the memoised custom card, culling on) built and served by Next from
// this repository's packages, and the studio's editor on a workflow of as many nodes, both opened in fresh
// contexts of one headless Chromium (1440×900, the anchor's launch flags), alternately, three times each.
// Timed from navigation start to the first animation frame in which cards are in the page, every one of them
// measured (React Flow shows a card once measured) and edges are drawn. Prints medians and the ratio, which
// is what to report (issue 12: ≤ 1.3×); never compare with a figure from another sitting.
//
// Usage (after `npx next build`): bash scripts/with-node.sh npx tsx bench/editor-side-by-side.ts [sizes] [repeats]
//   sizes: comma-separated node counts (1000,2000); repeats: 3. ANCHORS: folder of the anchor files (../shared/anchors).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type Browser, type BrowserContext } from "playwright-core";
import { CHROMIUM_ARGS } from "../lib/tools/builtin/web/chromium";
import { freePort, REPO_ROOT, startWeb, type WebProcess } from "./studio-process";

const SIZES = (process.argv[2] ?? "1000,2000").split(",").map(Number);
const REPEATS = Number(process.argv[3] ?? 3);
const ANCHORS = path.resolve(REPO_ROOT, process.env.ANCHORS ?? "../shared/anchors");
// A fresh app of its own, as the anchor was measured, with this repository's versions of next, react, react-dom and
// @xyflow/react installed from the registry (kept between sittings: installed once per set of versions).
const ANCHOR_APP = path.join(os.tmpdir(), "neurosurfer-react-flow-anchor");
const NEXT_BIN = path.join(ANCHOR_APP, "node_modules", "next", "dist", "bin", "next");
const ANCHOR_PACKAGES = ["next", "react", "react-dom", "@xyflow/react"];

function installedVersion(name: string): string {
  return (JSON.parse(readFileSync(path.join(REPO_ROOT, "node_modules", name, "package.json"), "utf8")) as { version: string }).version;
}
const VIEWPORT = { width: 1440, height: 900 };

/** The anchor page as a one-page Next app, built once per sitting. */
function buildAnchor(): void {
  const page = path.join(ANCHORS, "rf-bench-page.tsx");
  if (!existsSync(page)) throw new Error(`The anchor page is not at ${page}; set ANCHORS to the folder holding rf-bench-page.tsx`);
  const dependencies = Object.fromEntries(ANCHOR_PACKAGES.map((name) => [name, installedVersion(name)]));
  const manifest = JSON.stringify({ name: "react-flow-anchor", private: true, dependencies }, null, 2);
  const manifestPath = path.join(ANCHOR_APP, "package.json");
  if (!existsSync(manifestPath) || readFileSync(manifestPath, "utf8") !== manifest || !existsSync(NEXT_BIN)) {
    rmSync(ANCHOR_APP, { recursive: true, force: true });
    mkdirSync(ANCHOR_APP, { recursive: true });
    writeFileSync(manifestPath, manifest);
    console.log(`==> installing the anchor's packages (${Object.entries(dependencies).map(([name, version]) => `${name}@${version}`).join(", ")})`);
    const installed = spawnSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: ANCHOR_APP, stdio: "inherit" });
    if (installed.status !== 0) throw new Error("npm install of the anchor's packages failed");
  }
  rmSync(path.join(ANCHOR_APP, "app"), { recursive: true, force: true });
  rmSync(path.join(ANCHOR_APP, ".next"), { recursive: true, force: true });
  mkdirSync(path.join(ANCHOR_APP, "app"), { recursive: true });
  copyFileSync(page, path.join(ANCHOR_APP, "app", "page.tsx"));
  writeFileSync(
    path.join(ANCHOR_APP, "app", "layout.tsx"),
    `export default function RootLayout({ children }: { children: React.ReactNode }) {\n  return (\n    <html lang="en">\n      <body style={{ margin: 0 }}>{children}</body>\n    </html>\n  );\n}\n`,
  );
  writeFileSync(
    path.join(ANCHOR_APP, "tsconfig.json"),
    JSON.stringify({ compilerOptions: { target: "ES2022", lib: ["dom", "esnext"], jsx: "preserve", module: "esnext", moduleResolution: "bundler", strict: false, skipLibCheck: true, noEmit: true, esModuleInterop: true, resolveJsonModule: true, isolatedModules: true, incremental: false, plugins: [{ name: "next" }] }, include: ["**/*.tsx", "**/*.ts"] }, null, 2),
  );
  console.log("==> building the anchor page (bare React Flow)");
  const built = spawnSync(process.execPath, [NEXT_BIN, "build"], { cwd: ANCHOR_APP, stdio: ["ignore", "inherit", "inherit"], env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
  if (built.status !== 0) throw new Error("The anchor page did not build");
}

async function startAnchor(): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [NEXT_BIN, "start", "-H", "127.0.0.1", "-p", String(port)], { cwd: ANCHOR_APP, stdio: "ignore", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 600; attempt += 1) {
    try {
      if ((await fetch(`${url}/?n=1`)).ok) return { url, child };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill();
  throw new Error("The anchor page's server did not answer");
}

/** The studio's like of the anchor's graph: a chain of tool cards in a grid, edges from each to the next. */
function chainDefinition(count: number) {
  const columns = Math.ceil(Math.sqrt(count));
  const nodes = Array.from({ length: count }, (_, index) => ({
    id: `step_${index}`,
    kind: "tool",
    tool: "read_file",
    label: `Node ${index}`,
    position: { x: (index % columns) * 320, y: Math.floor(index / columns) * 140 },
    settings: {},
    arguments: { path: `notes/${index}.md` },
  }));
  const edges = nodes.slice(1).map((node, index) => ({ id: `e${index}`, source: nodes[index]!.id, target: node.id }));
  return { name: `Bench: ${count} nodes`, description: "Made by bench/editor-side-by-side.ts", nodes, edges };
}

// Runs in the page before its scripts (the anchor's detector, culling on): the first frame with cards, all measured, and edges.
const DETECTOR = `(() => {
  const check = () => {
    const nodes = document.querySelectorAll(".react-flow__node");
    if (nodes.length === 0 || document.querySelectorAll(".react-flow__edge").length === 0) return false;
    for (const node of nodes) if (node.style.visibility !== "visible") return false;
    return true;
  };
  const tick = () => {
    if (check()) {
      window.__rendered = { t: performance.now(), nodes: document.querySelectorAll(".react-flow__node").length, edges: document.querySelectorAll(".react-flow__edge").length };
      return;
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})()`;

interface Opening {
  ms: number;
  nodes: number;
  edges: number;
  domContentLoaded: number;
}

async function open(context: BrowserContext, url: string): Promise<Opening> {
  const page = await context.newPage();
  await page.addInitScript(DETECTOR);
  await page.goto(url, { waitUntil: "commit" });
  // Functions, not strings: the studio's Content-Security-Policy forbids evaluating strings.
  await page.waitForFunction(() => (window as unknown as { __rendered?: unknown }).__rendered !== undefined, undefined, { timeout: 60_000, polling: 50 });
  const result = await page.evaluate(() => ({
    ...(window as unknown as { __rendered: { t: number; nodes: number; edges: number } }).__rendered,
    dcl: (performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming).domContentLoadedEventEnd,
  }));
  await page.close();
  return { ms: result.t, nodes: result.nodes, edges: result.edges, domContentLoaded: result.dcl };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

async function main() {
  if (!existsSync(path.join(REPO_ROOT, ".next", "BUILD_ID"))) throw new Error("Build the studio first: npx next build");
  buildAnchor();
  const anchor = await startAnchor();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "editor-bench-"));
  let studio: WebProcess | null = null;
  let browser: Browser | null = null;
  try {
    studio = await startWeb({ env: { STUDIO_DATA_DIR: dataDir } });
    const studioUrl = `http://127.0.0.1:${studio.client.port}`;
    browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: CHROMIUM_ARGS });
    // Signed in once, by the printed link; every measured context starts from that cookie.
    const signIn = await browser.newContext({ viewport: VIEWPORT });
    const signInPage = await signIn.newPage();
    await signInPage.goto(`${studioUrl}/login?token=${encodeURIComponent(studio.client.token)}&next=/workflows`);
    await signInPage.waitForURL(/\/workflows$/);
    const signedIn = await signIn.storageState();
    await signIn.close();

    const rows: string[] = [];
    for (const count of SIZES) {
      const created = await studio.client.request("POST", "/api/workflows", chainDefinition(count));
      if (created.status !== 201) throw new Error(`Creating the ${count}-node workflow failed (${created.status}): ${created.body}`);
      const workflowId = (JSON.parse(created.body) as { workflow: { id: string } }).workflow.id;
      const targets = {
        anchor: `${anchor.url}/?n=${count}&type=custom&visible=1`,
        studio: `${studioUrl}/workflows/${workflowId}`,
      };
      // A warm-up of each, so neither server's first render of the route is counted.
      for (const [name, url] of Object.entries(targets)) {
        const context = await browser.newContext({ viewport: VIEWPORT, ...(name === "studio" ? { storageState: signedIn } : {}) });
        await open(context, url);
        await context.close();
      }
      const results: Record<keyof typeof targets, Opening[]> = { anchor: [], studio: [] };
      for (let repeat = 0; repeat < REPEATS; repeat += 1) {
        for (const name of ["anchor", "studio"] as const) {
          const context = await browser.newContext({ viewport: VIEWPORT, ...(name === "studio" ? { storageState: signedIn } : {}) });
          results[name].push(await open(context, targets[name]));
          await context.close();
        }
      }
      const anchorMs = median(results.anchor.map((each) => each.ms));
      const studioMs = median(results.studio.map((each) => each.ms));
      const line = (name: keyof typeof targets) =>
        `  ${name.padEnd(6)} ${median(results[name].map((each) => each.ms)).toFixed(0).padStart(5)} ms  [${results[name].map((each) => each.ms.toFixed(0)).join(", ")}]  DOMContentLoaded ${median(results[name].map((each) => each.domContentLoaded)).toFixed(0)} ms, ${results[name][0]!.nodes} cards and ${results[name][0]!.edges} edges drawn`;
      rows.push(`${count} nodes:`, line("anchor"), line("studio"), `  ratio  ${(studioMs / anchorMs).toFixed(2)}× (target ≤ 1.3×)`);
    }
    console.log(`\neditor open, culling on, headless Chromium ${VIEWPORT.width}×${VIEWPORT.height}, ${REPEATS} alternating runs each, load average ${os.loadavg()[0]!.toFixed(1)}:`);
    console.log(rows.join("\n"));
  } finally {
    await browser?.close();
    await studio?.stop();
    anchor.child.kill();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
