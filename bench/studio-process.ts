// What the HTTP benchmarks share: the built studio as a child process (a web process, `node scripts/serve.mjs`
// as `npm start` runs it, or a worker, `node --import tsx scripts/worker.ts` as `npm run worker` runs it), a
// keep-alive HTTP client that authenticates with the access token as a script would, and the workflows they run.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import http from "node:http";
import net from "node:net";
import path from "node:path";

export const REPO_ROOT = path.resolve(import.meta.dirname, "..");

/** Generous: on a busy 2-core machine, a cold start (migrations, loading the build) can take many seconds. */
const READY_TIMEOUT_MS = 120_000;

export interface Answer {
  status: number;
  body: string;
}

/** Requests to one studio on 127.0.0.1 with its access token; keep-alive, so a bench measures the studio, not TCP setup. */
export class StudioClient {
  private readonly agent: http.Agent;

  constructor(
    readonly port: number,
    readonly token: string,
    maxSockets = 20,
  ) {
    this.agent = new http.Agent({ keepAlive: true, maxSockets });
  }

  /** `timeoutMs` bounds the whole exchange (an event stream that never ends included): a stuck bench should fail, not hang. */
  request(method: string, urlPath: string, body?: unknown, timeoutMs = 120_000): Promise<Answer> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers = { authorization: `Bearer ${this.token}`, ...(payload ? { "content-type": "application/json", "content-length": Buffer.byteLength(payload) } : {}) };
    return new Promise((resolve, reject) => {
      const outgoing = http.request({ host: "127.0.0.1", port: this.port, path: urlPath, method, agent: this.agent, headers }, (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (text += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body: text }));
        response.on("error", reject);
      });
      outgoing.on("error", reject);
      const timer = setTimeout(() => outgoing.destroy(new Error(`${method} ${urlPath}: no complete answer within ${timeoutMs / 1000} s`)), timeoutMs);
      outgoing.on("close", () => clearTimeout(timer));
      outgoing.end(payload);
    });
  }

  /** The JSON body of an answer that must have `status`; anything else is a bench error worth stopping for. */
  async expect<T>(status: number, method: string, urlPath: string, body?: unknown): Promise<T> {
    const answer = await this.request(method, urlPath, body);
    if (answer.status !== status) throw new Error(`${method} ${urlPath} answered ${answer.status}, not ${status}: ${answer.body.slice(0, 500)}`);
    return JSON.parse(answer.body) as T;
  }

  async createWorkflow(definition: unknown): Promise<string> {
    return (await this.expect<{ workflow: { id: string } }>(201, "POST", "/api/workflows", definition)).workflow.id;
  }

  close(): void {
    this.agent.destroy();
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** A child process of the bench: its pid, the tail of what it printed, and a stop that waits for its exit. */
export interface BenchProcess {
  readonly pid: number;
  output(): string;
  /** SIGTERM (the studio's graceful stop, which also lets `--cpu-prof` write its profile), SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

/** The caller's environment without anything the studio reads, so a bench never runs on the caller's database or data. */
function cleanEnvironment(): NodeJS.ProcessEnv {
  const environment = { ...process.env };
  for (const name of Object.keys(environment)) if (name.startsWith("STUDIO_") || name === "DATABASE_URL") delete environment[name];
  return { ...environment, NEXT_TELEMETRY_DISABLED: "1" };
}

/** Spawns `node ...args` in the repository with `env`; `ready` resolves once `isReady` says so, rejects if it exits first. */
function spawnNode(args: string[], env: Record<string, string>, isReady: (output: string) => Promise<boolean> | boolean): { process: BenchProcess; ready: Promise<void> } {
  const child: ChildProcess = spawn(process.execPath, args, { cwd: REPO_ROOT, env: { ...cleanEnvironment(), ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  // Only the tail: a failure message needs the end of the log, and a long bench must not hold all of it.
  const collect = (text: string) => (output = (output + text).slice(-20_000));
  child.stdout!.setEncoding("utf8").on("data", collect);
  child.stderr!.setEncoding("utf8").on("data", collect);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const ready = new Promise<void>((resolve, reject) => {
    let settled = false;
    child.once("exit", (code, signal) => {
      if (!settled) reject(new Error(`node ${args.join(" ")} exited (${code ?? signal}) before it was ready:\n${output}`));
      settled = true;
    });
    const poll = async () => {
      while (!settled) {
        if (await Promise.resolve().then(() => isReady(output)).catch(() => false)) {
          settled = true;
          return resolve();
        }
        await new Promise((wake) => setTimeout(wake, 200));
      }
    };
    void poll();
    // A studio that neither starts nor fails (a database that never answers) must not hang the bench.
    setTimeout(() => {
      if (settled) return;
      settled = true;
      child.kill("SIGKILL");
      reject(new Error(`node ${args.join(" ")} was not ready within ${READY_TIMEOUT_MS / 1000} s:\n${output}`));
    }, READY_TIMEOUT_MS).unref();
  });
  const bench: BenchProcess = {
    pid: child.pid!,
    output: () => output,
    stop: async (graceMs = 10_000) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
  return { process: bench, ready };
}

export interface WebProcess extends BenchProcess {
  readonly client: StudioClient;
}

export interface WebOptions {
  /** Environment on top of the port, host and token: the database, the data folder, STUDIO_ROLE... */
  env: Record<string, string>;
  /** Node options before the script, e.g. `--cpu-prof`. */
  nodeArgs?: string[];
  /** The script and its arguments for a port; default the launcher `npm start` runs (which reads PORT). */
  command?: (port: number) => string[];
  maxSockets?: number;
}

/** A web process on a free port of 127.0.0.1 with a fresh access token, once it answers an authenticated request. */
export async function startWeb(options: WebOptions): Promise<WebProcess> {
  const port = await freePort();
  const token = randomBytes(24).toString("base64url");
  const client = new StudioClient(port, token, options.maxSockets);
  const env = { ...options.env, STUDIO_TOKEN: token, PORT: String(port), HOST: "127.0.0.1", STUDIO_PASSWORD: "" };
  const args = [...(options.nodeArgs ?? []), ...(options.command?.(port) ?? ["scripts/serve.mjs"])];
  const started = spawnNode(args, env, async () => (await client.request("GET", "/api/tools")).status === 200);
  try {
    await started.ready;
  } catch (error) {
    client.close();
    throw error;
  }
  return {
    ...started.process,
    client,
    stop: async (graceMs) => {
      client.close();
      await started.process.stop(graceMs);
    },
  };
}

/** A worker (STUDIO_ROLE=worker) on the database in `env`, once it says it drives runs. One process: tsx as a loader. */
export async function startWorker(env: Record<string, string>, nodeArgs: string[] = []): Promise<BenchProcess> {
  const started = spawnNode([...nodeArgs, "--import", "tsx", "scripts/worker.ts"], { ...env, STUDIO_ROLE: "worker" }, (output) => output.includes("[worker] driving runs"));
  await started.ready;
  return started.process;
}

/** input -> `steps` read-only list_dir steps in a chain on `root` -> output; `steps` 0 is the minimal workflow. */
export function listDirChain(name: string, steps: number, root: string, extra: Record<string, unknown> = {}) {
  const tools = Array.from({ length: steps }, (_, index) => ({ id: `list${index}`, kind: "tool", tool: "list_dir", settings: { root }, arguments: { path: "." } }));
  const ids = ["in", ...tools.map((tool) => tool.id), "out"];
  return {
    name,
    ...extra,
    nodes: [{ id: "in", kind: "input", fields: [] }, ...tools, { id: "out", kind: "output", value: "done" }],
    edges: ids.slice(1).map((target, index) => ({ id: `e${index}`, source: ids[index]!, target })),
  };
}

/** The value below which `fraction` of the sorted values lie. */
export function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? NaN;
}
