// Where a server spent its CPU while a bench measured, not while it started: the areas and functions of the last
// 18 s of a `--cpu-prof` profile (BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR" with a 20 s bench ends the server
// right after). Compare two builds side by side: what one spends and the other does not is the regression.
// Run: npx tsx bench/profile-window.ts DIR/CPU.….cpuprofile [seconds=18]
import { readFileSync } from "node:fs";
import { summarizeProfile } from "./cpu-profile";
const file = process.argv[2]!;
const profile = JSON.parse(readFileSync(file, "utf8")) as { endTime: number };
const seconds = Number(process.argv[3] ?? 18);
const summary = summarizeProfile(file, profile.endTime - (seconds + 1) * 1_000_000, profile.endTime - 1_000_000);
console.log(`window ${summary.windowMs.toFixed(0)} ms, busy ${summary.busyMs.toFixed(0)} ms`);
for (const area of summary.areas.slice(0, 12)) console.log(area.ms.toFixed(0).padStart(6), area.name);
console.log("--");
for (const entry of summary.functions.slice(0, 30)) console.log(entry.ms.toFixed(0).padStart(6), entry.name);
