// The editor's figures (TARGETS.md: a 2,000-node workflow opens in < 1.5 s and pans at >= 55 updates/s
// in headless Chromium). Needs a running studio: build, start it on a throwaway data folder, then
//   STUDIO_URL=http://127.0.0.1:3000 npx tsx bench/editor.bench.ts [nodes] [repeats]
// Printed, never asserted: these machines are shared and noisy, so it reports medians.
import { chromium, type Page } from "playwright-core";

const STUDIO_URL = (process.env.STUDIO_URL ?? "").replace(/\/$/, "");
if (!STUDIO_URL) {
  console.error("Set STUDIO_URL to a running studio, e.g. STUDIO_URL=http://127.0.0.1:3000 npx tsx bench/editor.bench.ts");
  process.exit(2);
}
const NODE_COUNT = Number(process.argv[2] ?? 2000);
const REPEATS = Number(process.argv[3] ?? 3);
const PAN_MS = 2000;

/** A long workflow: Run inputs, then tool steps in rows of 40 chained left to right, then an output. */
function bigDefinition(count: number) {
  const columns = 40;
  const nodes: Record<string, unknown>[] = [{ id: "input_1", kind: "input", position: { x: 0, y: 0 }, fields: [] }];
  const edges: Record<string, unknown>[] = [];
  let previous = "input_1";
  for (let index = 1; index < count - 1; index += 1) {
    const id = `read_file_${index}`;
    nodes.push({
      id,
      kind: "tool",
      tool: "read_file",
      operation: null,
      position: { x: (index % columns) * 320, y: Math.floor(index / columns) * 140 },
      settings: {},
      arguments: { path: `notes/${index}.md` },
    });
    edges.push({ id: `e${index}`, source: previous, target: id, sourceHandle: null });
    previous = id;
  }
  nodes.push({ id: "output_1", kind: "output", position: { x: 0, y: Math.ceil(count / columns) * 140 }, value: "done" });
  edges.push({ id: "e_out", source: previous, target: "output_1", sourceHandle: null });
  return { name: `Bench: ${count} nodes`, description: "Made by bench/editor.bench.ts", nodes, edges };
}

async function createWorkflow(count: number): Promise<string> {
  const response = await fetch(`${STUDIO_URL}/api/workflows`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(bigDefinition(count)),
  });
  if (!response.ok) throw new Error(`Creating the workflow failed (${response.status}): ${await response.text()}`);
  const body = (await response.json()) as { workflow: { id: string } };
  return body.workflow.id;
}

/** From navigation start to the first node cards drawn and measured (React Flow shows a node once measured). */
async function openTime(page: Page, id: string): Promise<number> {
  const started = Date.now();
  await page.goto(`${STUDIO_URL}/workflows/${id}`, { waitUntil: "commit" });
  await page.waitForFunction(
    `(() => {
      const nodes = document.querySelectorAll(".react-flow__node");
      return nodes.length > 0 && [...nodes].every((node) => node.style.visibility !== "hidden");
    })()`,
    undefined,
    { polling: "raf", timeout: 30_000 },
  );
  return Date.now() - started;
}

/** Drags the pane for PAN_MS and counts how often the viewport's transform actually changed per second. */
async function panRate(page: Page): Promise<number> {
  const pane = await page.locator(".react-flow__pane").boundingBox();
  if (!pane) throw new Error("No canvas pane");
  // Passed as text: tsx would wrap named functions in a helper the page does not have.
  await page.evaluate(`(() => {
    const viewport = document.querySelector(".react-flow__viewport");
    const state = { updates: 0, last: viewport.style.transform, running: true };
    window.__pan = state;
    const tick = () => {
      if (!state.running) return;
      if (viewport.style.transform !== state.last) {
        state.updates += 1;
        state.last = viewport.style.transform;
      }
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  })()`);
  // Start on empty canvas, between cards, and sweep back and forth.
  const startX = pane.x + pane.width / 2;
  const startY = pane.y + pane.height / 2 - 70 / 2;
  await page.mouse.move(startX, startY);
  await page.mouse.down();
  const started = Date.now();
  let step = 0;
  while (Date.now() - started < PAN_MS) {
    step += 1;
    const offset = Math.sin(step / 12) * 300;
    await page.mouse.move(startX + offset, startY + offset / 3);
  }
  const elapsed = Date.now() - started;
  await page.mouse.up();
  const updates = (await page.evaluate(`(() => { window.__pan.running = false; return window.__pan.updates; })()`)) as number;
  return (updates / elapsed) * 1000;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

async function main() {
  const id = await createWorkflow(NODE_COUNT);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"],
  });
  const opens: number[] = [];
  const pans: number[] = [];
  let mounted = 0;
  try {
    // One warm-up load so the server's first compile of the route is not counted.
    const warm = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await openTime(warm, id);
    await warm.close();
    for (let repeat = 0; repeat < REPEATS; repeat += 1) {
      const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      opens.push(await openTime(page, id));
      mounted = await page.locator(".react-flow__node").count();
      await page.waitForTimeout(500);
      pans.push(await panRate(page));
      await page.close();
    }
  } finally {
    await browser.close();
    await fetch(`${STUDIO_URL}/api/workflows/${id}`, { method: "DELETE" }).catch(() => undefined);
  }
  console.log(`editor, ${NODE_COUNT} nodes (${mounted} cards in the DOM), ${REPEATS} runs, headless Chromium 1440x900:`);
  console.log(`  open to first cards drawn: median ${median(opens).toFixed(0)} ms  [${opens.map((each) => each.toFixed(0)).join(", ")}]  (target < 1500 ms)`);
  console.log(`  pan: median ${median(pans).toFixed(1)} updates/s  [${pans.map((each) => each.toFixed(1)).join(", ")}]  (target >= 55/s)`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
