// How long `search` takes over 10,000 small files. Run: npx tsx bench/search.bench.ts
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { SearchTool } from "../lib/tools/builtin/filesystem/search";
import { AutoApproveIOHandler } from "../lib/tools/io-handler";
import { createToolContext } from "../lib/tools/tool-context";

const FOLDERS = 100;
const FILES_PER_FOLDER = 100;
const RUNS = 10;

function makeTree(root: string): void {
  for (let folder = 0; folder < FOLDERS; folder++) {
    const dir = path.join(root, `pkg${folder}`, "src");
    mkdirSync(dir, { recursive: true });
    for (let file = 0; file < FILES_PER_FOLDER; file++) {
      const index = folder * FILES_PER_FOLDER + file;
      const marker = index % 97 === 0 ? `const marker = "needle-${index}";\n` : "";
      const body = Array.from({ length: 20 }, (_, line) => `export const value${index}_${line} = ${line};`).join("\n");
      writeFileSync(path.join(dir, `file${file}.ts`), `// file ${index}\n${marker}${body}\n`);
    }
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function main(): Promise<void> {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), "neurosurfer-search-bench-")));
  try {
    makeTree(root);
    const ctx = createToolContext({ io: new AutoApproveIOHandler(), settings: { root }, permissions: { mode: "bypass" } });
    const tool = new SearchTool();
    const cases = [
      { label: "rare match (104 hits)", args: { pattern: "needle-\\d+", maxResults: 1000 } },
      { label: "no match", args: { pattern: "not-present-anywhere" } },
      { label: "case-insensitive, *.ts glob", args: { pattern: "NEEDLE-\\d+", caseSensitive: false, glob: "*.ts", maxResults: 1000 } },
      { label: "every file matches (stops at 200)", args: { pattern: "export const" } },
    ];
    console.log(`search over ${FOLDERS * FILES_PER_FOLDER} files, ${RUNS} runs each (after one warm-up):`);
    for (const { label, args } of cases) {
      await tool.run(args, ctx);
      const times: number[] = [];
      let summary = "";
      for (let run = 0; run < RUNS; run++) {
        const started = performance.now();
        const result = await tool.run(args, ctx);
        times.push(performance.now() - started);
        if (result.isError) throw new Error(result.content);
        summary = result.content.split("\n")[0]!;
      }
      console.log(`  ${label.padEnd(36)} median ${median(times).toFixed(1)} ms, min ${Math.min(...times).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms  (${summary})`);
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

void main();
