import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { REPO_ROOT } from "./studio-server";

/**
 * `npm run worker` as a child process (the same command), for the
 * scale-out tests: it drives runs from the queue of the PostgreSQL database in
 * `env.DATABASE_URL`.
 */
export interface WorkerProcess {
  readonly pid: number;
  logs(): string;
  /** Sends `signal` (default SIGKILL) and waits for the exit. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export async function startWorker(env: Record<string, string>, timeoutMs = 30_000): Promise<WorkerProcess> {
  // A data folder of its own (the secret key comes from STUDIO_SECRET_KEY), never the checkout's .data.
  const dataDir = env.STUDIO_DATA_DIR ?? mkdtempSync(path.join(os.tmpdir(), "studio-worker-data-"));
  const environment: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", STUDIO_DATA_DIR: dataDir, ...env, STUDIO_ROLE: "worker" };
  // One process (tsx as a loader, as `npm run worker` does): tsx's own CLI would run the worker in a child that a SIGKILL misses.
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "scripts/worker.ts"], { cwd: REPO_ROOT, env: environment, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  await new Promise<void>((resolve, reject) => {
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
  return {
    pid: child.pid!,
    logs: () => output,
    kill: async (signal: NodeJS.Signals = "SIGKILL") => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      await exited;
    },
  };
}
