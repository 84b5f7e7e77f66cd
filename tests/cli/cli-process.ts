import { spawn } from "node:child_process";
import path from "node:path";

const repoRoot = path.resolve(import.meta.dirname, "../..");
// tsx's CLI on this test's own Node (not the `node` a PATH lookup would find: the machine's may be older).
const TSX_CLI = path.join(repoRoot, "node_modules/tsx/dist/cli.mjs");

/** What the studio's own variables would tell the CLI: removed from the caller's environment before each test's own. */
const STUDIO_VARIABLES = ["STUDIO_DATA_DIR", "DATABASE_URL", "STUDIO_SECRET_KEY", "STUDIO_PASSWORD", "STUDIO_TOKEN", "STUDIO_URL"];

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the real `npm run workflow` script, stdin not a terminal, in a clean environment plus `extraEnvironment`. */
export function runWorkflowCli(args: string[], extraEnvironment: Record<string, string> = {}): Promise<CliResult> {
  const environment: NodeJS.ProcessEnv = { ...process.env };
  for (const name of STUDIO_VARIABLES) delete environment[name];
  Object.assign(environment, extraEnvironment);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [TSX_CLI, "scripts/workflow-cli.ts", ...args], { cwd: repoRoot, env: environment, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdin.end();
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}
