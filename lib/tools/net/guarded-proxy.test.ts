import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../builtin/web/test-server";
import { AutoApproveIOHandler } from "../io-handler";
import { defaultGuardrails } from "../permissions/guardrails";
import { createToolContext } from "../tool-context";
import { startGuardedProxy } from "./guarded-proxy";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer((_request, response) => {
    response.end("through the tunnel");
  });
});
afterAll(() => server.close());

/** Opens a CONNECT tunnel through the proxy, as a browser does for HTTPS and web sockets, and sends one GET in it. */
async function throughTunnel(proxyUrl: string, authority: string): Promise<string> {
  const proxy = new URL(proxyUrl);
  const socket = net.connect(Number(proxy.port), proxy.hostname);
  const received: Buffer[] = [];
  let tunnelled = false;
  socket.on("data", (chunk: Buffer) => {
    received.push(chunk);
    if (!tunnelled && Buffer.concat(received).toString().startsWith("HTTP/1.1 200")) {
      tunnelled = true;
      received.length = 0;
      socket.write(`GET /inside HTTP/1.1\r\nHost: ${authority}\r\nConnection: close\r\n\r\n`);
    }
  });
  socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`);
  await new Promise((resolve) => socket.once("close", resolve));
  return Buffer.concat(received).toString();
}

describe("the guarded proxy's tunnels (HTTPS, web sockets)", () => {
  const port = () => new URL(server.url).port;

  it("tunnels to an allow-listed host only at the address it looked up, once", async () => {
    const asked: string[] = [];
    const ctx = createToolContext({
      io: new AutoApproveIOHandler(),
      // Known only to this resolver: the tunnel connects where the check looked, or not at all.
      resolveHost: async (host) => {
        asked.push(host);
        return ["127.0.0.1"];
      },
      permissions: { guardrails: { ...defaultGuardrails(), localNetworkAllow: ["tunnel.test"] } },
    });
    const proxy = await startGuardedProxy(ctx, new Map());
    try {
      expect(await throughTunnel(proxy.url, `tunnel.test:${port()}`)).toContain("through the tunnel");
      expect(await throughTunnel(proxy.url, `tunnel.test:${port()}`)).toContain("through the tunnel");
      expect(asked).toEqual(["tunnel.test"]);
      expect(proxy.blocked).toEqual([]);
    } finally {
      await proxy.close();
    }
  });

  it("refuses a tunnel into this machine's network, without connecting, and says where it led", async () => {
    const ctx = createToolContext({
      io: new AutoApproveIOHandler(),
      resolveHost: async () => ["127.0.0.1"],
    });
    const proxy = await startGuardedProxy(ctx, new Map());
    const before = server.requests.length;
    try {
      expect(await throughTunnel(proxy.url, `internal.test:${port()}`)).toBe("HTTP/1.1 403 Forbidden\r\n\r\n");
      expect(proxy.blocked).toEqual([`https://internal.test:${port()} (internal.test leads to 127.0.0.1, this machine (loopback))`]);
      expect(server.requests.length).toBe(before);
    } finally {
      await proxy.close();
    }
  });

  it("names why a tunnel to a host let through could not connect", async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const closedPort = (closed.address() as net.AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const ctx = createToolContext({ io: new AutoApproveIOHandler(), resolveHost: async () => ["127.0.0.1"] });
    const proxy = await startGuardedProxy(ctx, new Map([["page.test", ["127.0.0.1"]]]));
    try {
      expect(await throughTunnel(proxy.url, `page.test:${closedPort}`)).toBe("HTTP/1.1 502 Bad Gateway\r\n\r\n");
      expect(proxy.failureOf(`https://page.test:${closedPort}`)).toBe("ECONNREFUSED");
    } finally {
      await proxy.close();
    }
  });
});
