// Where a process spent its CPU: a small summarizer of the .cpuprofile JSON that `node --cpu-prof` writes at exit,
// and CPU time from /proc for the whole machine and for single processes (Linux; elsewhere they read as unknown).
import { readFileSync } from "node:fs";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface Profile {
  nodes: { id: number; callFrame: CallFrame }[];
  /** Microseconds on the monotonic clock, the one `process.hrtime` reads: comparable across processes of one machine. */
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Now on the clock of a profile's timestamps, in microseconds. */
export const monotonicMicros = (): number => Number(process.hrtime.bigint() / 1000n);

export interface SelfTime {
  name: string;
  ms: number;
}

export interface ProfileSummary {
  /** Milliseconds of the window the samples cover, and how many of them the process was busy (not idle). */
  windowMs: number;
  busyMs: number;
  /** Self time per function, most first. */
  functions: SelfTime[];
  /** Self time per area: a package under node_modules, Node's own code, the studio's code, the engine (GC, program). */
  areas: SelfTime[];
}

/**
 * Self time per function and per area, counting only the samples taken between `from` and `to` (monotonic
 * microseconds), so start-up and the phases before the profiled one do not blur the picture. A window that misses
 * the profile entirely (another clock) falls back to the whole profile.
 */
export function summarizeProfile(file: string, from = -Infinity, to = Infinity): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  if (to < profile.startTime || from > profile.endTime) [from, to] = [-Infinity, Infinity];
  const functions = new Map<string, number>();
  const areas = new Map<string, number>();
  let time = profile.startTime;
  let windowMs = 0;
  let busyMs = 0;
  profile.samples.forEach((nodeId, index) => {
    time += profile.timeDeltas[index] ?? 0;
    // A sample stands for the time until the next one.
    const ms = (profile.timeDeltas[index + 1] ?? 0) / 1000;
    if (time < from || time > to) return;
    const frame = frames.get(nodeId)!;
    windowMs += ms;
    if (frame.functionName === "(idle)") return;
    busyMs += ms;
    const name = `${frame.functionName || "(anonymous)"} ${shortUrl(frame.url)}${frame.url ? `:${frame.lineNumber + 1}` : ""}`.trim();
    functions.set(name, (functions.get(name) ?? 0) + ms);
    areas.set(areaOf(frame), (areas.get(areaOf(frame)) ?? 0) + ms);
  });
  const ranked = (totals: Map<string, number>) => [...totals].map(([name, ms]) => ({ name, ms })).sort((left, right) => right.ms - left.ms);
  return { windowMs, busyMs, functions: ranked(functions), areas: ranked(areas) };
}

/** The part of a script's URL that says what it is: from node_modules/<package> on, or from the repository on. */
function shortUrl(url: string): string {
  const modules = url.lastIndexOf("node_modules/");
  if (modules >= 0) return url.slice(modules + "node_modules/".length);
  return url.replace(/^file:\/\//, "").replace(/^.*?\/(\.next|lib|app|scripts)\//, "$1/");
}

function areaOf(frame: CallFrame): string {
  // No script: V8's own entries ("(garbage collector)", "(program)") or native functions (writev, readdir: I/O bindings).
  if (!frame.url) return frame.functionName.startsWith("(") ? `engine ${frame.functionName}` : "native code (I/O bindings)";
  if (frame.url.startsWith("node:")) return "node built-ins";
  // The only WebAssembly in the studio is Prisma's query compiler (query_compiler_bg.*.wasm).
  if (frame.url.startsWith("wasm://")) return "wasm (Prisma's query compiler)";
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(frame.url);
  if (modules) return modules[1]!;
  // The build bundles the web process's code into .next chunks; a worker runs the sources themselves (through tsx).
  if (frame.url.includes("/.next/")) return "studio build (.next chunks)";
  return "studio sources";
}

/** Seconds of CPU the whole machine spent busy, and in all, so far (the `cpu` line of /proc/stat); null off Linux. */
export function machineCpuSeconds(): { busy: number; total: number } | null {
  try {
    const fields = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
    const total = fields.reduce((sum, value) => sum + value, 0);
    // idle and iowait are the 4th and 5th fields; the kernel counts in clock ticks, 100 a second on Linux.
    return { busy: (total - fields[3]! - (fields[4] ?? 0)) / 100, total: total / 100 };
  } catch {
    return null;
  }
}

/** Seconds of CPU (user + system) process `pid` has used so far, or only its thread `thread` (its main thread's id is `pid`); null when unknown. */
export function processCpuSeconds(pid: number, thread?: number): number | null {
  try {
    // The command name, in parentheses, may hold spaces: the fields after it start at utime (14th field overall).
    const fields = readFileSync(thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`, "utf8").replace(/^.*\) /, "").split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}
