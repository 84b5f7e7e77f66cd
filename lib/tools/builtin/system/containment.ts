import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";

/**
 * How a command is tied to the studio's lifetime.
 * - `pid-namespace`: in a PID namespace of its own (as root, or where the kernel lets this user create one).
 * - `user-namespace`: the same, inside a user namespace mapping only the current user (unprivileged).
 * - `process-group`: its own process group only; it dies on a normal stop, but not with a SIGKILLed
 *   studio, and a command that calls setsid() escapes it.
 */
export type ContainmentMode = "pid-namespace" | "user-namespace" | "process-group";

export interface Containment {
  mode: ContainmentMode;
  /** The program and arguments put before `/bin/bash -c <command>`; empty in `process-group` mode. */
  prefix: string[];
  /** Why the namespaces could not be used, in `process-group` mode. */
  reason?: string;
}

/**
 * `setpriv --pdeathsig KILL`: the kernel SIGKILLs `unshare` when the studio dies, even by SIGKILL.
 * `unshare --kill-child`: unshare's own death SIGKILLs the namespace's first process (the shell), and
 * the kernel then kills every process in the namespace, daemonised and setsid()'d ones included,
 * since none of them can leave it. `--mount-proc` gives the command a /proc of its namespace, so the
 * pids `ps`, `pgrep` and `pkill` see are the ones its `kill` reaches.
 */
const NAMESPACE_FLAGS = ["--pid", "--fork", "--kill-child=SIGKILL", "--mount-proc"];
const PARENT_DEATH = ["setpriv", "--pdeathsig", "KILL", "--"];
const CANDIDATES: { mode: Exclude<ContainmentMode, "process-group">; prefix: string[] }[] = [
  { mode: "pid-namespace", prefix: [...PARENT_DEATH, "unshare", ...NAMESPACE_FLAGS, "--"] },
  // Unprivileged: a user namespace that maps the current user to itself, so files and `id` stay the same.
  { mode: "user-namespace", prefix: [...PARENT_DEATH, "unshare", "--user", "--map-current-user", ...NAMESPACE_FLAGS, "--"] },
];
const PROBE_TIMEOUT_MS = 10_000;

let detected: Containment | null = null;

/**
 * The containment this machine allows, probed once per process (a spawn per
 * candidate) and then cached: commands start often, the answer does not change.
 * Falls back to process groups with one warning on the log, saying what to do.
 */
export function detectContainment(): Containment {
  if (detected) return detected;
  const failures: string[] = [];
  for (const candidate of CANDIDATES) {
    const [program, ...args] = candidate.prefix;
    const probe = spawnSync(program!, [...args, "/bin/sh", "-c", "exit 0"], { timeout: PROBE_TIMEOUT_MS, encoding: "utf8", stdio: ["ignore", "ignore", "pipe"] });
    if (probe.status === 0) {
      detected = { mode: candidate.mode, prefix: candidate.prefix };
      return detected;
    }
    failures.push(`${candidate.mode}: ${probe.error?.message ?? (probe.stderr.trim() || `exit code ${probe.status}`)}`);
  }
  detected = { mode: "process-group", prefix: [], reason: failures.join("; ") };
  console.warn(
    `[run_command] commands cannot be put in a PID namespace here (${detected.reason}), so they run in process groups: ` +
      "they are stopped on a timeout, a cancel or a normal shutdown, but a command that daemonises (setsid) or a studio " +
      "killed with SIGKILL can leave processes behind. To tie them to the studio, install util-linux (setpriv, unshare) " +
      "and run as root, or allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1; in a container, " +
      "a seccomp profile that permits unshare).",
  );
  return detected;
}

let parentDeath: string[] | null = null;

/**
 * What to put before a helper program the studio starts (a SQLite reader, say) so that the kernel SIGKILLs it
 * when the studio dies, even by SIGKILL: `setpriv --pdeathsig KILL --`, by its full path (such children get
 * next to no environment, so no PATH to look it up in). Empty where setpriv is missing or refused: the helper
 * then ends when its IPC channel closes, which it notices only between statements. Probed once per process.
 */
export function parentDeathPrefix(): string[] {
  if (parentDeath) return parentDeath;
  const folders = (process.env.PATH ?? "/usr/bin:/bin").split(":").filter(Boolean);
  const setpriv = folders.map((folder) => path.join(folder, "setpriv")).find((candidate) => existsSync(candidate));
  const works = setpriv !== undefined && spawnSync(setpriv, ["--pdeathsig", "KILL", "--", "/bin/sh", "-c", "exit 0"], { timeout: PROBE_TIMEOUT_MS, stdio: "ignore" }).status === 0;
  parentDeath = works ? [setpriv, "--pdeathsig", "KILL", "--"] : [];
  return parentDeath;
}
