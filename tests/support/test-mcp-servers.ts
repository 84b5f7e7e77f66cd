import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";

/** Starting the test MCP server (tests/support/test-mcp-server.ts) from tests. */

const REPO_ROOT = path.resolve(import.meta.dirname, "../..");
export const TEST_SERVER_FILE = path.join(REPO_ROOT, "tests/support/test-mcp-server.ts");
const TSX_CLI = path.join(REPO_ROOT, "node_modules/tsx/dist/cli.mjs");

/** The command and arguments that start the test server over stdio. */
export function testServerCommand(): { command: string; args: string[] } {
  return { command: process.execPath, args: [TSX_CLI, TEST_SERVER_FILE] };
}

/** The published filesystem server (a devDependency), serving `folder` over stdio. */
export function filesystemServerCommand(folder: string): { command: string; args: string[] } {
  return { command: process.execPath, args: [path.join(REPO_ROOT, "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js"), folder] };
}

export interface HttpTestServer {
  /** The MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** Starts the test server over streamable HTTP; `token` makes it require `Authorization: Bearer <token>`. */
export async function startHttpTestServer(options: { token?: string } = {}): Promise<HttpTestServer> {
  const { command, args } = testServerCommand();
  const child = spawn(command, [...args, "--http"], {
    env: { ...process.env, ...(options.token ? { TEST_MCP_TOKEN: options.token } : {}) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`The HTTP test MCP server did not start: ${output}`)), 20_000);
    child.stdout!.setEncoding("utf8").on("data", (text: string) => {
      output += text;
      const match = /listening (\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.once("exit", (code) => reject(new Error(`The HTTP test MCP server exited (code ${code}): ${output}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    process: child,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}
