import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";

/**
 * Starting the built studio for a test, written once for both harnesses
 * (tests/api/studio-server.ts under vitest, e2e/fixtures/worker-studio.ts
 * under Playwright): `npm start`'s command on the test's own Node, leading a
 * process group of its own, with none of the caller's studio settings;
 * waiting until it answers, failing early when it exits; and the group's
 * signals, so stopping it takes whatever it started too. Node's built-ins
 * only, and no path of its own (the caller names the repository): Playwright
 * loads it as well as vitest.
 */

/** The environment variables the studio reads: the caller's values never reach a test server. */
const STUDIO_VARIABLES = [
  "STUDIO_DATA_DIR",
  "DATABASE_URL",
  "STUDIO_SECRET_KEY",
  "STUDIO_PASSWORD",
  "STUDIO_TOKEN",
  "STUDIO_PUBLIC_URL",
  "STUDIO_ALLOWED_HOSTS",
  "PORT",
  "HOST",
];

/** This process's environment without the studio's settings or OpenTelemetry's (a test server exports traces only where its test says), plus `settings`. */
export function studioEnvironment(settings: Record<string, string>): NodeJS.ProcessEnv {
  const environment: NodeJS.ProcessEnv = { ...process.env };
  for (const name of STUDIO_VARIABLES) delete environment[name];
  for (const name of Object.keys(environment)) if (name.startsWith("OTEL_")) delete environment[name];
  return { ...environment, NEXT_TELEMETRY_DISABLED: "1", ...settings };
}

/**
 * The package's own `start` script as an argument list, so the tests start the
 * server as `npm start` does; HOST and PORT come from the environment, as they
 * do for a person. The script runs `node scripts/serve.mjs` through
 * scripts/with-node.sh, which only makes sure of a Node 24 or newer and its
 * dependencies: the tests already run on one, so they leave that wrapper out
 * and run the script's command on their own Node (process.execPath).
 */
export function startCommand(root: string): string[] {
  const script = (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts.start;
  if (!script) throw new Error('package.json has no "start" script.');
  let words = script.trim().split(/\s+/);
  if (words[0] === "bash" && words[1] === "scripts/with-node.sh") words = words.slice(2);
  return words[0] === "node" ? [process.execPath, ...words.slice(1)] : words;
}

export interface LaunchedStudio {
  readonly child: ChildProcess;
  /** Resolves once the process has exited, with its code (null when a signal ended it). */
  readonly exited: Promise<number | null>;
  /** Whether the process still runs. */
  running(): boolean;
  /** How it exited: its code, null when a signal ended it, undefined while it runs. */
  exitCode(): number | null | undefined;
}

/**
 * Starts the studio in `root` with `environment` (see `studioEnvironment`), leading a process group of its own;
 * `onOutput` receives what it prints on stdout and stderr.
 */
export function launchStudio(root: string, environment: NodeJS.ProcessEnv, onOutput: (text: string) => void): LaunchedStudio {
  const [command, ...args] = startCommand(root);
  const child = spawn(command!, args, { cwd: root, env: environment, stdio: ["ignore", "pipe", "pipe"], detached: true });
  child.stdout.setEncoding("utf8").on("data", onOutput);
  child.stderr.setEncoding("utf8").on("data", onOutput);
  let exitCode: number | null | undefined;
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => {
      exitCode = code;
      resolve(code);
    }),
  );
  return { child, exited, running: () => exitCode === undefined, exitCode: () => exitCode };
}

/**
 * Waits until `url` gives any HTTP answer (a 401 or a sign-in page means it is up: the studio boots before its first
 * request), polling every 100 ms; throws when `failure` names a reason (the process exited) or after `timeoutMs`.
 */
export async function waitUntilAnswering(url: string, timeoutMs: number, failure: () => string | null, init: RequestInit = {}): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const reason = failure();
    if (reason) throw new Error(reason);
    try {
      await fetch(url, { ...init, signal: AbortSignal.timeout(5_000) });
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`The studio at ${url} did not answer within ${timeoutMs} ms (a busy machine starts it slowly)`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/**
 * Stops a launched studio as a person's Ctrl+C would: SIGTERM to the server, which lets its steps in flight finish,
 * and SIGKILL to its whole group after `graceMs` if it is still there; then whatever it started and left in its group
 * (a shell, an MCP server) goes too, also when the server had already exited. Resolves once the server has exited.
 */
export async function stopStudio(studio: LaunchedStudio, graceMs: number): Promise<void> {
  const pid = studio.child.pid;
  if (studio.running() && pid !== undefined) {
    try {
      process.kill(pid, "SIGTERM");
    } catch {
      // It exited meanwhile.
    }
    const late = setTimeout(() => signalGroup(pid, "SIGKILL"), graceMs);
    await studio.exited;
    clearTimeout(late);
  }
  signalGroup(pid, "SIGKILL");
  await studio.exited;
}

/** Sends `signal` to the process group `pid` leads; nothing when it is gone. */
export function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is gone already.
  }
}
