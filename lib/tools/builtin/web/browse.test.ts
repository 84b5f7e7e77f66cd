import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AutoApproveIOHandler } from "../../io-handler";
import type { Tool } from "../../tool";
import { defaultGuardrails } from "../../permissions/guardrails";
import { createToolContext, type ToolContext } from "../../tool-context";
import { BrowseTool } from "./browse";
import { chromiumPath } from "./chromium";
import { startTestServer, type TestServer } from "./test-server";

const browseTool = new BrowseTool();
const tool: Tool = browseTool;
let server: TestServer;

const PAGE = `<!doctype html>
<html><head><title>Studio test page</title><style>.hidden { display: none }</style></head>
<body>
  <h1>Hello from the test page</h1>
  <p class="hidden">invisible words</p>
  <div id="later"></div>
  <script>
    document.body.insertAdjacentHTML("beforeend", "<p>drawn by a script</p>");
    setTimeout(() => { document.getElementById("later").innerHTML = "<p id='late'>arrived late</p>"; }, 300);
  </script>
</body></html>`;

beforeAll(async () => {
  server = await startTestServer(async (request, response) => {
    if (request.url === "/slow") {
      await new Promise((resolve) => setTimeout(resolve, 5_000));
    }
    if (request.url?.startsWith("/redirect?")) {
      response.writeHead(302, { location: new URL(request.url, "http://x").searchParams.get("to") ?? "/" }).end();
      return;
    }
    response.setHeader("content-type", "text/html; charset=utf-8");
    if (request.url?.startsWith("/embeds?")) {
      // A page that loads an image from another host: the guardrail decides whether it may.
      const image = new URL(request.url, "http://x").searchParams.get("image") ?? "";
      response.end(`<!doctype html><html><head><title>Embeds</title></head><body><p>With an image</p><img src="${image}"></body></html>`);
      return;
    }
    response.end(PAGE);
  });
});
afterAll(() => server.close());

const context = (signal?: AbortSignal): ToolContext =>
  createToolContext({ io: new AutoApproveIOHandler(), ...(signal ? { signal } : {}) });

describe("browse: the outbound-address guardrail", () => {
  const port = () => new URL(server.url).port;
  const resolving = (names: Record<string, string>) => async (host: string) => {
    if (!names[host]) throw Object.assign(new Error(`no such host ${host}`), { code: "ENOTFOUND" });
    return [names[host]!];
  };

  it("refuses a page on the private network under a denying policy, before a browser starts", async () => {
    const ctx = createToolContext({
      io: new AutoApproveIOHandler(),
      resolveHost: resolving({ "intranet.test": "10.0.0.5" }),
      permissions: { guardrails: { ...defaultGuardrails(), localNetworkPolicy: "denied" } },
    });
    const result = await tool.run({ url: "http://intranet.test/" }, ctx);
    expect(result.isError).toBe(true);
    expect(result.content).toContain("intranet.test leads to 10.0.0.5, a private network address");
  });

  it("opens an allow-listed page at the address it checked, and blocks what it loads from this machine's network", async () => {
    // Both names exist only in this resolver: the page loads because Chromium is pinned to the checked address.
    const ctx = createToolContext({
      io: new AutoApproveIOHandler(),
      resolveHost: resolving({ "page.test": "127.0.0.1", "internal.test": "127.0.0.1" }),
      permissions: { guardrails: { ...defaultGuardrails(), localNetworkAllow: ["page.test"] } },
    });
    const before = server.requests.length;
    const image = `http://internal.test:${port()}/secret.png`;
    const result = await tool.run({ url: `http://page.test:${port()}/embeds?image=${encodeURIComponent(image)}` }, ctx);
    expect(result.isError, result.content).toBe(false);
    expect(result.content).toContain("With an image");
    expect(result.content).toContain(`Blocked (they reach this machine or its network): http://internal.test:${port()} (internal.test leads to 127.0.0.1, this machine (loopback))`);
    const seen = server.requests.slice(before).map((request) => request.url);
    expect(seen.some((url) => url.startsWith("/embeds"))).toBe(true);
    expect(seen.filter((url) => url.startsWith("/secret.png"))).toEqual([]);
  });

  it("connects what the page loads only at the address it checked, looking each host up once", async () => {
    // images.test exists only in this resolver: its image loads only if the browser connects where the check
    // looked, never by a lookup of its own (which is how a rebinding DNS answer would slip through).
    const asked: string[] = [];
    const names = resolving({ "page.test": "127.0.0.1", "images.test": "127.0.0.1" });
    const ctx = createToolContext({
      io: new AutoApproveIOHandler(),
      resolveHost: async (host) => {
        asked.push(host);
        return names(host);
      },
      permissions: { guardrails: { ...defaultGuardrails(), localNetworkAllow: ["page.test", "images.test"] } },
    });
    const before = server.requests.length;
    const image = `http://images.test:${port()}/picture.png`;
    const result = await tool.run({ url: `http://page.test:${port()}/embeds?image=${encodeURIComponent(image)}` }, ctx);
    expect(result.isError, result.content).toBe(false);
    expect(result.content).not.toContain("Blocked");
    const seen = server.requests.slice(before).map((request) => request.url);
    expect(seen.filter((url) => url === "/picture.png")).toHaveLength(1);
    expect(asked.filter((host) => host === "images.test")).toEqual(["images.test"]);
  });

  it("blocks a redirect of the page itself into this machine's network, saying where it led", async () => {
    const ctx = createToolContext({
      io: new AutoApproveIOHandler(),
      resolveHost: resolving({ "page.test": "127.0.0.1", "internal.test": "127.0.0.1" }),
      permissions: { guardrails: { ...defaultGuardrails(), localNetworkAllow: ["page.test"] } },
    });
    const before = server.requests.length;
    const away = `http://internal.test:${port()}/secret`;
    const result = await tool.run({ url: `http://page.test:${port()}/redirect?to=${encodeURIComponent(away)}` }, ctx);
    expect(result.content).toContain(`http://internal.test:${port()} (internal.test leads to 127.0.0.1, this machine (loopback))`);
    const seen = server.requests.slice(before).map((request) => request.url);
    expect(seen.filter((url) => url === "/secret")).toEqual([]);
  });
});

describe("browse: declaration", () => {
  it("is read-only but not concurrency-safe, with nothing to configure", () => {
    expect(browseTool.name).toBe("browse");
    expect(browseTool.title).toBe("Browse a Web Page");
    expect(browseTool.capabilities).toEqual(["web.browse"]);
    expect(browseTool.runtime).toBe("local_subprocess");
    expect(browseTool.settingsModel).toBeNull();
    expect(tool.isReadOnly()).toBe(true);
    expect(tool.isDestructive()).toBe(false);
    expect(tool.isConcurrencySafe()).toBe(false);
  });

  it("is disabled when no Chromium binary exists", () => {
    const previous = process.env.CHROMIUM_PATH;
    process.env.CHROMIUM_PATH = "/nonexistent/chromium";
    try {
      expect(tool.isEnabled()).toBe(false);
    } finally {
      if (previous === undefined) delete process.env.CHROMIUM_PATH;
      else process.env.CHROMIUM_PATH = previous;
    }
  });

  it("refuses addresses that are not http(s), naming the field", async () => {
    for (const url of ["file:///etc/passwd", "javascript:alert(1)", "example.com"]) {
      const result = await tool.run({ url }, context());
      expect(result.isError).toBe(true);
      expect(result.content).toContain("`url`: expected an absolute http:// or https:// address");
    }
    const badTimeout = await tool.run({ url: "http://127.0.0.1/", timeoutSeconds: 0 }, context());
    expect(badTimeout.content).toContain("`timeoutSeconds`");
  });
});

describe(`browse: in Chromium (${chromiumPath()})`, () => {
  // `npm test` installs Debian's Chromium (scripts/ensure-services.sh); without it these must fail, not vanish.
  it("finds a Chromium to drive", () => {
    expect(new BrowseTool().isEnabled(), `no Chromium at ${chromiumPath()}: run scripts/ensure-services.sh`).toBe(true);
  });

  it("returns the title, the visible text and a PNG screenshot", async () => {
    const result = await tool.run({ url: `${server.url}/page`, waitForSelector: "#late" }, context());
    expect(result.isError, result.content).toBe(false);
    expect(result.content).toContain("Title: Studio test page");
    expect(result.content).toContain("Status: 200");
    expect(result.content).toContain("Hello from the test page");
    expect(result.content).toContain("drawn by a script");
    expect(result.content).toContain("arrived late");
    expect(result.content).not.toContain("invisible words");
    expect(result.images).toHaveLength(1);
    expect(result.images[0]!.mediaType).toBe("image/png");
    expect(Buffer.from(result.images[0]!.data, "base64").subarray(1, 4).toString()).toBe("PNG");
    expect(result.data).toMatchObject({ title: "Studio test page", status: 200 });
  });

  it("reports a selector that never appears, naming the field", async () => {
    const result = await tool.run({ url: `${server.url}/page`, waitForSelector: "#never", timeoutSeconds: 1 }, context());
    expect(result.isError).toBe(true);
    expect(result.content).toContain('`waitForSelector`: nothing matching "#never" became visible');
  });

  it("reports an unreachable page and a page that does not load in time", async () => {
    const closed = await startTestServer(() => undefined);
    await closed.close();
    const refused = await tool.run({ url: `${closed.url}/` }, context());
    expect(refused.isError).toBe(true);
    expect(refused.content).toContain("the connection was refused");

    const slow = await tool.run({ url: `${server.url}/slow`, timeoutSeconds: 1 }, context());
    expect(slow.isError).toBe(true);
    expect(slow.content).toContain("did not finish loading within 1 s");
  });

  it("stops when the run is cancelled", async () => {
    const controller = new AbortController();
    let abortedAt = 0;
    setTimeout(() => {
      abortedAt = Date.now();
      controller.abort();
    }, 1_000);
    // Far beyond the test's own time limit: an end before it can only be the cancellation (a loaded machine is slow to close a page).
    const result = await tool.run({ url: `${server.url}/slow`, timeoutSeconds: 120 }, context(controller.signal));
    expect(result.isError).toBe(true);
    expect(result.content).toContain("cancelled");
    expect(abortedAt).toBeGreaterThan(0);
  });
});
