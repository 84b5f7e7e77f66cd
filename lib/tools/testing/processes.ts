import { readdirSync, readFileSync } from "node:fs";

/**
 * Pids (in this process's namespace) of live processes whose command line
 * contains `marker`. Tests find what a command started by a unique word in its
 * argv, since the pids a command prints are those of its own PID namespace.
 */
export function processesWithMarker(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const commandLine = readFileSync(`/proc/${entry}/cmdline`, "utf8").replaceAll("\0", " ");
      if (commandLine.includes(marker) && isAlive(Number(entry))) found.push(Number(entry));
    } catch {
      // Gone between the listing and the read.
    }
  }
  return found;
}

/** Alive and not a zombie (PID 1 in a container may never reap orphans). */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

/** Polls `check` until it holds; generous by default, since a loaded machine is slow. */
export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 20_000, what = "condition"): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A `sleep` command no other process has: its duration is its marker for `processesWithMarker`. */
export function uniqueSleep(): string {
  return `sleep 300.${Math.floor(Math.random() * 1e9)}`;
}
