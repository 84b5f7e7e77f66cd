import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { REPO_ROOT } from "./studio-server";

/**
 * `npm run worker` as a child process (the same script, through tsx), for the
 * scale-out tests: it drives runs from the queue of the PostgreSQL database in
 * `env.DATABASE_URL`.
 */
export interface WorkerProcess {
  readonly pid: number;
  logs(): string;
  /** Sends `signal` (default SIGKILL) and waits for the exit. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

const TSX = path.join(REPO_ROOT, "node_modules", "tsx", "dist", "cli.mjs");

export async function startWorker(env: Record<string, string>, timeoutMs = 30_000): Promise<WorkerProcess> {
  const environment: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...env, STUDIO_ROLE: "worker" };
  const child: ChildProcess = spawn(process.execPath, [TSX, "scripts/worker.ts"], { cwd: REPO_ROOT, env: environment, stdio: ["ignore", "pipe", "pipe"] });
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
