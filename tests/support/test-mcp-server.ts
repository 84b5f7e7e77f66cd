// An MCP server for the tests, over stdio (default) or streamable HTTP (`--http`,
// prints `listening <port>` once it listens). Its tools cover what the studio
// must survive: echo (read-only), write_note (destructive), slow (sleeps),
// working (sleeps in steps, reporting progress after each),
// crash (exits the process), bad (answers with a malformed result), fail
// (isError), picture (an image), environment (what the process was given),
// research (requires task-based execution).
import { writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { z } from "zod";

const BAD_MARKER = "__malformed_result__";
/** A 1×1 transparent PNG. */
const PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";

function buildServer(): McpServer {
  const server = new McpServer({ name: "test-mcp-server", version: "1.0.0" });
  server.registerTool(
    "echo",
    {
      title: "Echo",
      description: "Returns the text it is given, repeated `times` times.",
      inputSchema: { text: z.string().describe("What to echo."), times: z.number().int().min(1).max(5).optional().describe("How often.") },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ text, times }) => ({ content: [{ type: "text", text: Array.from({ length: times ?? 1 }, () => text).join(" ") }] }),
  );
  server.registerTool(
    "write_note",
    {
      title: "Write a note",
      description: "Writes text to a file in the folder NOTES_DIR (or the system's temporary folder).",
      inputSchema: { file: z.string(), text: z.string() },
      annotations: { destructiveHint: true },
    },
    async ({ file, text }) => {
      const target = path.join(process.env.NOTES_DIR ?? os.tmpdir(), path.basename(file));
      writeFileSync(target, text);
      return { content: [{ type: "text", text: `wrote ${target}` }] };
    },
  );
  server.registerTool(
    "slow",
    { description: "Sleeps for `ms` milliseconds, then answers.", inputSchema: { ms: z.number().int().min(0) }, annotations: { readOnlyHint: true } },
    async ({ ms }) => {
      await new Promise((resolve) => setTimeout(resolve, ms));
      return { content: [{ type: "text", text: `slept ${ms} ms` }] };
    },
  );
  server.registerTool(
    "working",
    {
      description: "Works for `steps` × `everyMs` milliseconds, reporting progress after each step (when the caller asked for it).",
      inputSchema: { steps: z.number().int().min(1), everyMs: z.number().int().min(0) },
      annotations: { readOnlyHint: true },
    },
    async ({ steps, everyMs }, extra) => {
      const progressToken = extra._meta?.progressToken;
      for (let step = 1; step <= steps; step += 1) {
        await new Promise((resolve) => setTimeout(resolve, everyMs));
        if (progressToken !== undefined) {
          await extra.sendNotification({ method: "notifications/progress", params: { progressToken, progress: step, total: steps, message: `step ${step} of ${steps}` } });
        }
      }
      return { content: [{ type: "text", text: `done after ${steps} steps` }] };
    },
  );
  server.registerTool("crash", { description: "Exits the server process at once.", annotations: { readOnlyHint: true } }, async () => {
    process.stderr.write("test server: crashing on purpose\n");
    process.exit(3);
  });
  server.registerTool("bad", { description: "Answers with a result that breaks the MCP schema.", annotations: { readOnlyHint: true } }, async () => ({
    content: [{ type: "text", text: BAD_MARKER }],
  }));
  server.registerTool("fail", { description: "Reports a tool error.", annotations: { readOnlyHint: true } }, async () => ({
    content: [{ type: "text", text: "the disk is full" }],
    isError: true,
  }));
  server.registerTool("picture", { description: "Returns a tiny image.", annotations: { readOnlyHint: true } }, async () => ({
    content: [
      { type: "text", text: "a pixel" },
      { type: "image", data: PIXEL, mimeType: "image/png" },
    ],
  }));
  server.registerTool("environment", { description: "Lists the environment variables it was started with.", annotations: { readOnlyHint: true } }, async () => ({
    content: [{ type: "text", text: JSON.stringify(process.env) }],
  }));
  // Like server-everything's simulate-research-query: callable only as an MCP task.
  server.experimental.tasks.registerToolTask(
    "research",
    { description: "Runs only as an MCP task.", inputSchema: { topic: z.string() }, execution: { taskSupport: "required" } },
    {
      createTask: async () => {
        throw new Error("the studio never starts a task");
      },
      getTask: async () => {
        throw new Error("the studio never starts a task");
      },
      getTaskResult: async () => {
        throw new Error("the studio never starts a task");
      },
    },
  );
  return server;
}

/** Corrupts the answer of `bad` on its way out, past the SDK's own result check. */
function corruptingBadResults(transport: Transport): Transport {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    const result = (message as { result?: { content?: { text?: string }[] } }).result;
    if (result?.content?.[0]?.text === BAD_MARKER) {
      return send({ ...message, result: { content: "not a list", isError: "perhaps" } } as typeof message, options);
    }
    return send(message, options);
  };
  return transport;
}

async function serveStdio(): Promise<void> {
  await buildServer().connect(corruptingBadResults(new StdioServerTransport()));
}

function serveHttp(port: number): void {
  const token = process.env.TEST_MCP_TOKEN;
  const server = http.createServer((request, response) => {
    if (token && request.headers.authorization !== `Bearer ${token}`) {
      response.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ error: "bad token" }));
      return;
    }
    // Stateless: a fresh server and transport per request.
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    const mcp = buildServer();
    response.on("close", () => {
      void transport.close();
      void mcp.close();
    });
    void mcp.connect(corruptingBadResults(transport)).then(() => transport.handleRequest(request, response));
  });
  server.listen(port, "127.0.0.1", () => {
    const address = server.address();
    process.stdout.write(`listening ${typeof address === "object" && address ? address.port : port}\n`);
  });
}

const portIndex = process.argv.indexOf("--port");
if (process.argv.includes("--http")) serveHttp(portIndex >= 0 ? Number(process.argv[portIndex + 1]) : 0);
else void serveStdio();
