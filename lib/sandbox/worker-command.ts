import { spawnSync } from "node:child_process";
import { existsSync, realpathSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { parentDeathPrefix } from "../tools/builtin/system/containment";
import { WORKER_SCRIPT } from "./worker-script";

/**
 * How a sandbox worker process is started: the outer layers around QuickJS.
 *
 * - `setpriv --pdeathsig KILL` (parentDeathPrefix): the kernel kills the worker when the studio dies.
 * - A network namespace of its own (`unshare --net`, or unprivileged `unshare --user --map-current-user --net`):
 *   the process has no network interface but a loopback that is down, so even code that escaped QuickJS and Node's
 *   permissions could not connect anywhere, the studio's own loopback ports included. Probed once per process.
 * - Node's permission model: `--permission` with reads allowed only under the three QuickJS package folders, and no
 *   writes, child processes, worker threads, native addons or WASI (all refused unless allowed). Tried on Node 24:
 *   IPC (`process.send`) and loading the .wasm file work under it, while `fs.readFileSync("/etc/hostname")`,
 *   `fs.writeFileSync`, and `child_process.execSync` fail with ERR_ACCESS_DENIED, so it stays.
 * - `--disallow-code-generation-from-strings`: nothing in the worker evaluates text as JavaScript (QuickJS's eval
 *   is QuickJS's own), so V8's eval and Function are turned off.
 * - An empty environment: the studio's holds secrets, and the worker needs none.
 * - `--max-old-space-size`: bounds the worker's own heap (requests and results in transit); QuickJS's memory is
 *   bounded per job by its limit.
 * - `--stack-size`: room on V8's stack for the WebAssembly frames of QuickJS's recursion, about three bytes for each
 *   byte QuickJS counts against its stack limit (measured: a 512 KiB QuickJS limit overflows V8's default stack,
 *   and is reached safely under 2,000 KB, with a 640 KiB limit too). Linux's default main-thread stack is 8 MB.
 */

/**
 * No variable at all: the studio's environment holds secrets, and neither the worker nor a probe needs one. Cast,
 * since Next's typing of ProcessEnv requires NODE_ENV, which these processes deliberately do not get.
 */
export const EMPTY_ENVIRONMENT = {} as NodeJS.ProcessEnv;

const WORKER_HEAP_MIB = 512;
const WORKER_STACK_KIB = 2_000;
const PROBE_TIMEOUT_MS = 10_000;

export interface WorkerCommand {
  program: string;
  args: string[];
  /** How the worker is kept off the network; `none` when this machine allows neither namespace. */
  network: NetworkIsolation["mode"];
}

export interface NetworkIsolation {
  mode: "network-namespace" | "user-network-namespace" | "none";
  prefix: string[];
  reason?: string;
}

let detectedNetwork: NetworkIsolation | null = null;

/**
 * Whether workers can get a network namespace of their own, probed once per process (a spawn per candidate) and
 * cached. When neither works, one warning on the log says what to change.
 */
export function detectNetworkIsolation(): NetworkIsolation {
  if (detectedNetwork) return detectedNetwork;
  const unshare = findProgram("unshare");
  const candidates: { mode: Exclude<NetworkIsolation["mode"], "none">; prefix: string[] }[] = unshare
    ? [
        { mode: "network-namespace", prefix: [unshare, "--net", "--"] },
        { mode: "user-network-namespace", prefix: [unshare, "--user", "--map-current-user", "--net", "--"] },
      ]
    : [];
  const failures: string[] = unshare ? [] : ["unshare (util-linux) is not installed"];
  for (const candidate of candidates) {
    const [program, ...args] = candidate.prefix;
    const probe = spawnSync(program!, [...args, "/bin/sh", "-c", "exit 0"], { timeout: PROBE_TIMEOUT_MS, encoding: "utf8", env: EMPTY_ENVIRONMENT, stdio: ["ignore", "ignore", "pipe"] });
    if (probe.status === 0) {
      detectedNetwork = candidate;
      return detectedNetwork;
    }
    failures.push(`${candidate.mode}: ${probe.error?.message ?? (probe.stderr.trim() || `exit code ${probe.status}`)}`);
  }
  detectedNetwork = { mode: "none", prefix: [], reason: failures.join("; ") };
  console.warn(
    `[sandbox] JavaScript sandbox workers cannot be given a network namespace here (${detectedNetwork.reason}), so they share the ` +
      "studio's network: the code itself still has no way to reach it (QuickJS has no network API, and Node's permission model " +
      "confines the worker), but a flaw in those would not be caught by a missing network. To add this layer, install " +
      "util-linux (unshare) and run as root, or allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1; " +
      "in a container, a seccomp profile that permits unshare).",
  );
  return detectedNetwork;
}

let quickjsFolders: { core: string; variant: string; readable: string[] } | null = null;

/**
 * The QuickJS packages' folders, resolved from the working directory (the project root, as the studio's other
 * run-time paths are; the Next build bundles server code, so they are not resolved relative to this file) and
 * through symbolic links, since the permission model checks real paths.
 */
export function resolveQuickjsFolders(): { core: string; variant: string; readable: string[] } {
  if (quickjsFolders) return quickjsFolders;
  const fromRoot = createRequire(path.join(process.cwd(), "package.json"));
  // The package's entry, then the folder named after the package above it (not every package exports package.json).
  const folderOf = (resolve: NodeJS.RequireResolve, name: string) => {
    const entry = resolve(name);
    const marker = path.join("node_modules", name);
    const at = entry.lastIndexOf(marker);
    if (at === -1) throw new Error(`${name} resolved outside a node_modules folder (${entry})`);
    return realpathSync(entry.slice(0, at + marker.length));
  };
  const core = folderOf(fromRoot.resolve, "quickjs-emscripten-core");
  const variant = folderOf(fromRoot.resolve, "@jitl/quickjs-wasmfile-release-sync");
  // The types package is required by the core package, so it is found from there.
  const types = folderOf(createRequire(path.join(core, "package.json")).resolve, "@jitl/quickjs-ffi-types");
  quickjsFolders = { core, variant, readable: [core, variant, types] };
  return quickjsFolders;
}

/** The full command line of one worker process. */
export function workerCommand(): WorkerCommand {
  const folders = resolveQuickjsFolders();
  const network = detectNetworkIsolation();
  const node = [
    process.execPath,
    "--permission",
    ...folders.readable.map((folder) => `--allow-fs-read=${folder}`),
    "--disallow-code-generation-from-strings",
    `--max-old-space-size=${WORKER_HEAP_MIB}`,
    `--stack-size=${WORKER_STACK_KIB}`,
    "-e",
    WORKER_SCRIPT,
    folders.core,
    folders.variant,
  ];
  const [program, ...args] = [...parentDeathPrefix(), ...network.prefix, ...node];
  return { program: program!, args, network: network.mode };
}

/** `name`'s full path on PATH (workers get no environment, so no PATH to look it up in), if it is there. */
function findProgram(name: string): string | undefined {
  const folders = (process.env.PATH ?? "/usr/bin:/bin").split(path.delimiter).filter(Boolean);
  return folders.map((folder) => path.join(folder, name)).find((candidate) => existsSync(candidate));
}
