import http from "node:http";
import net from "node:net";
import type { Duplex } from "node:stream";
import type { ToolContext } from "../tool-context";
import { pageRequestReach } from "./local-reach";
import { hostOf } from "./outbound";

/**
 * A forward proxy on loopback that a browser is made to send every request
 * through, so the outbound-address guardrail decides at the one place that
 * knows the address actually connected to. For each host the proxy resolves
 * once (through `ctx.resolveHost`), checks where that leads, and then connects
 * only to those addresses: a page whose DNS answer changes after the check
 * (rebinding) cannot reach this machine or its network by a second lookup in
 * the browser, for its frames, images, scripts, redirects or web sockets alike.
 *
 * Hosts given in `checked` were checked (and asked about) already, with the
 * addresses they may be reached at: the page's own host.
 */
export interface GuardedProxy {
  /** For Chromium's `--proxy-server`. */
  readonly url: string;
  /** What was refused, each once: "origin (where it leads)". */
  readonly blocked: readonly string[];
  /** Why connecting to an origin let through failed, as its error code (ECONNREFUSED, …), if it did. */
  failureOf(origin: string): string | undefined;
  close(): Promise<void>;
}

export async function startGuardedProxy(ctx: ToolContext, checked: ReadonlyMap<string, readonly string[]>): Promise<GuardedProxy> {
  const blocked = new Set<string>();
  // One decision per host and port for the proxy's life: asked once, connected to what was answered.
  const decisions = new Map<string, Promise<Decision>>();
  const decide = (origin: URL): Promise<Decision> => {
    const key = `${origin.protocol}//${origin.host}`;
    let decision = decisions.get(key);
    if (!decision) {
      decision = decideFor(origin, ctx, checked);
      decisions.set(key, decision);
    }
    return decision;
  };
  const refuse = (origin: URL, decision: Extract<Decision, { blocked: string }>) => {
    blocked.add(`${origin.origin} (${decision.blocked})`);
  };

  const failures = new Map<string, string>();
  const failed = (origin: URL, error: NodeJS.ErrnoException) => failures.set(origin.origin, error.code ?? error.message);

  const sockets = new Set<Duplex>();
  const track = (socket: Duplex) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  };

  const server = http.createServer((request, response) => {
    // A proxied plain-HTTP request names its whole URL on the request line.
    let target: URL;
    try {
      target = new URL(request.url ?? "");
    } catch {
      response.writeHead(400).end();
      return;
    }
    if (target.protocol !== "http:") {
      response.writeHead(400).end();
      return;
    }
    void decide(target).then((decision) => {
      if ("blocked" in decision) {
        refuse(target, decision);
        response.writeHead(403, { "content-type": "text/plain; charset=utf-8" }).end(`Blocked by the studio: ${decision.blocked}.`);
        return;
      }
      if ("unresolved" in decision) {
        response.writeHead(502, { "content-type": "text/plain; charset=utf-8" }).end(`${decision.unresolved}.`);
        return;
      }
      // To the checked address itself: nothing is looked up again.
      const upstream = http.request({
        host: decision.addresses[0],
        port: Number(target.port || 80),
        method: request.method,
        path: `${target.pathname}${target.search}`,
        headers: withoutProxyHeaders(request.headers),
        signal: ctx.signal,
      });
      upstream.on("response", (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        answer.pipe(response);
      });
      // The browser sees a dropped connection, as it would have without the proxy; the reason is kept for the result.
      upstream.on("error", (error) => {
        failed(target, error);
        response.destroy();
      });
      request.pipe(upstream);
    });
  });
  server.on("connection", track);
  // HTTPS and web sockets: a tunnel to host:port, opened only to the checked addresses.
  server.on("connect", (request: http.IncomingMessage, client: Duplex, head: Buffer) => {
    track(client);
    client.on("error", () => client.destroy());
    let target: URL;
    try {
      target = new URL(`https://${request.url ?? ""}`);
    } catch {
      client.end("HTTP/1.1 400 Bad Request\r\n\r\n");
      return;
    }
    // The port says which scheme the browser meant well enough for the allow list's port match.
    void decide(target).then((decision) => {
      if ("blocked" in decision) {
        refuse(target, decision);
        client.end("HTTP/1.1 403 Forbidden\r\n\r\n");
        return;
      }
      if ("unresolved" in decision) {
        client.end("HTTP/1.1 502 Bad Gateway\r\n\r\n");
        return;
      }
      const upstream = net.connect({ host: decision.addresses[0], port: Number(target.port || 443) });
      track(upstream);
      let connected = false;
      upstream.on("error", (error) => {
        failed(target, error);
        if (connected) client.destroy();
        else client.end("HTTP/1.1 502 Bad Gateway\r\n\r\n");
      });
      upstream.once("connect", () => {
        connected = true;
        client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
        if (head.length > 0) upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get blocked() {
      return [...blocked];
    },
    failureOf: (origin) => failures.get(origin),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

type Decision = { addresses: readonly string[] } | { blocked: string } | { unresolved: string };

async function decideFor(origin: URL, ctx: ToolContext, checked: ReadonlyMap<string, readonly string[]>): Promise<Decision> {
  const already = checked.get(hostOf(origin).toLowerCase());
  if (already) return { addresses: already };
  const reach = await pageRequestReach(origin, ctx);
  if ("unresolved" in reach) return reach;
  return reach.blocked === null ? { addresses: reach.addresses } : { blocked: reach.blocked };
}

/** Hop-by-hop headers a proxy must not pass on. */
function withoutProxyHeaders(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const { "proxy-connection": _proxyConnection, "proxy-authorization": _proxyAuthorization, ...rest } = headers;
  return rest;
}
