import { spawn, type ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import { testRunFolder, testRunMarker } from "../support/test-run";
import { REPO_ROOT } from "./studio-server";

/**
 * `npm run worker` as a child process (the same command), for the
 * scale-out tests: it drives runs from the queue of the PostgreSQL database in
 * `env.DATABASE_URL`.
 */
export interface WorkerProcess {
  readonly pid: number;
  logs(): string;
  /** Sends `signal` (default SIGKILL), waits for the exit, and removes a data folder it made. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export async function startWorker(env: Record<string, string>, timeoutMs = 120_000): Promise<WorkerProcess> {
  // A data folder of its own (the secret key comes from STUDIO_SECRET_KEY), never the checkout's .data.
  const ownsDataDir = env.STUDIO_DATA_DIR === undefined;
  const dataDir = env.STUDIO_DATA_DIR ?? testRunFolder("worker-data");
  const removeOwned = () => ownsDataDir && rmSync(dataDir, { recursive: true, force: true });
  const environment: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", STUDIO_DATA_DIR: dataDir, ...env, STUDIO_ROLE: "worker", ...testRunMarker() };
  // One process (tsx as a loader, as `npm run worker` does): tsx's own CLI would run the worker in a child that a SIGKILL misses.
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "scripts/worker.ts"], { cwd: REPO_ROOT, env: environment, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const started = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The worker did not start within ${timeoutMs} ms:\n${output}`)), timeoutMs);
    const onData = (text: string) => {
      output += text;
      if (output.includes("[worker] driving runs")) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.setEncoding("utf8").on("data", onData);
    child.stderr!.setEncoding("utf8").on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`The worker exited (code ${code}) before it started:\n${output}`));
    });
  });
  try {
    await started;
  } catch (error) {
    // A worker that did not start is not left running.
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await exited;
    removeOwned();
    throw error;
  }
  return {
    pid: child.pid!,
    logs: () => output,
    kill: async (signal: NodeJS.Signals = "SIGKILL") => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill(signal);
        await exited;
      }
      removeOwned();
    },
  };
}
