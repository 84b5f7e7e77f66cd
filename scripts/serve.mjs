#!/usr/bin/env node
// The one way to start the built studio (`npm start`, `npm run studio`, the tests):
// Next.js in this process behind a plain HTTP server that
//   - binds HOST (default 127.0.0.1) and PORT (default 3000), and refuses an
//     address other machines can reach unless STUDIO_PASSWORD is set;
//   - writes the connecting socket's address into X-Forwarded-For (replacing
//     whatever the client sent), so the sign-in throttle counts real addresses.
// Everything else (Host and Origin checks, credentials, headers) is proxy.ts's job.
import http from "node:http";
import module from "node:module";
import { isIP } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

// V8 keeps the code it compiled for Next and the studio between starts, beside the build (not in the shared temporary
// folder, where another account could plant code; Node checks each entry against its file's content): a start took
// 2.5 s of CPU instead of 3.1 s. Next is loaded after this line, so the cache serves it.
module.enableCompileCache?.(path.join(root, ".next", "cache", "node-compile-cache"));
const { default: next } = await import("next");

const say = (message) => console.log(`[studio] ${message}`);
const fail = (message) => {
  console.error(`[studio] cannot start: ${message}`);
  process.exit(1);
};

const host = (process.env.HOST ?? "").trim() || "127.0.0.1";
const portText = (process.env.PORT ?? "").trim() || "3000";
const port = Number(portText);
if (!/^\d+$/.test(portText) || port < 1 || port > 65_535) fail(`PORT: expected a port from 1 to 65535, got "${portText}".`);

const bare = host.replace(/^\[|\]$/g, "");
const loopback = bare === "localhost" || bare === "::1" || (isIP(bare) === 4 && bare.startsWith("127."));
if (!loopback) {
  if (!(process.env.STUDIO_PASSWORD ?? "").trim()) {
    fail(
      `HOST=${host} lets other machines reach the studio, and it runs commands and holds your secrets. ` +
        "Set STUDIO_PASSWORD too (and STUDIO_PUBLIC_URL or STUDIO_ALLOWED_HOSTS for the name people use), " +
        "and put a TLS proxy in front of it: plain HTTP shows the password and the session to the network.",
    );
  }
  console.warn(`[studio] WARNING: listening on ${host}: reachable from other machines over plain HTTP. Use a TLS proxy in front of it.`);
}
// The studio's own code reads where it is served from these (sign-in link, allowed hosts).
process.env.HOST = host;
process.env.PORT = String(port);
process.env.NEXT_TELEMETRY_DISABLED ??= "1";

const app = next({ dev: false, dir: root, hostname: bare, port });
await app.prepare();
const handle = app.getRequestHandler();

// Webhook deliveries, and starting a run and following its events, skip Next's routing: the studio registers their
// handler here when it boots (lib/server/direct/dispatch.ts; it answers null for every other request). Until then, and
// for everything else, Next serves them (app/hooks, app/hooks-test, app/api).
const directRoutes = () => globalThis[Symbol.for("neurosurfer.direct-routes")];

const server = http.createServer((request, response) => {
  const address = (request.socket.remoteAddress ?? "").replace(/^::ffff:/, "");
  request.headers["x-forwarded-for"] = address;
  delete request.headers["x-forwarded-host"];
  const direct = directRoutes();
  const served = (typeof direct === "function" ? direct(request, response) : null) ?? handle(request, response);
  served.catch((error) => {
    console.error("[studio] unexpected error while serving a request", error);
    if (!response.headersSent) response.writeHead(500, { "content-type": "text/plain; charset=utf-8" });
    response.end("Something went wrong on the server; the details are in its log.");
  });
});
// Idle keep-alive connections stay open for 65 s, not Node's 5 s. A client that reuses a pooled connection just as
// the server closes it gets ECONNRESET, and clients whose pools never expire sockets themselves (Node's http.Agent
// without a timeout, as Playwright's request context uses) only stay clear of that race when the server waits
// longer than they ever sit idle between requests. Browsers retry such a request; scripts do not.
server.keepAliveTimeout = 65_000;
// Node expects the header timeout above the keep-alive one (a slow request's headers still get a minute).
server.headersTimeout = 66_000;
server.on("error", (error) => fail(error.code === "EADDRINUSE" ? `port ${port} on ${host} is in use; set PORT to another.` : error.message));
server.listen(port, bare, () => say(`listening on http://${bare.includes(":") ? `[${bare}]` : bare}:${port}`));

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    if (stopping) process.exit(1);
    stopping = true;
    server.close();
    server.closeAllConnections();
    // On PostgreSQL the studio drives runs from a job queue: let in-flight steps finish (bounded) and hand the rest back.
    const shutdownStudio = globalThis[Symbol.for("neurosurfer.studio-shutdown")];
    void Promise.resolve(typeof shutdownStudio === "function" ? shutdownStudio(10_000) : undefined)
      .catch((error) => console.error("[studio] shutdown", error))
      .then(() => app.close())
      .finally(() => process.exit(0));
  });
}
