import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IOHandler } from "../../io-handler";
import { defaultGuardrails, type Guardrails } from "../../permissions/guardrails";
import type { Tool } from "../../tool";
import { createToolContext, type ToolContext } from "../../tool-context";
import type { ToolResult } from "../../tool-result";
import { HttpTool } from "./http";
import { startTestServer, type TestServer } from "./test-server";
import { RecordingIOHandler } from "../../testing/recording-io-handler";


const httpTool = new HttpTool();
const tool: Tool = httpTool;
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer(async (request, response) => {
    const url = new URL(request.url, "http://localhost");
    switch (url.pathname) {
      case "/json":
        response.setHeader("content-type", "application/json");
        response.setHeader("set-cookie", "session=do-not-report");
        response.setHeader("etag", '"v1"');
        response.end(JSON.stringify({ name: "neurosurfer", tags: ["a", "b"] }));
        return;
      case "/echo":
        response.setHeader("content-type", "application/json");
        response.end(JSON.stringify({ method: request.method, contentType: request.headers["content-type"] ?? null, token: request.headers["x-token"] ?? null, body: request.body }));
        return;
      case "/missing":
        response.statusCode = 404;
        response.setHeader("content-type", "text/plain");
        response.end("no such thing");
        return;
      case "/image":
        response.setHeader("content-type", "image/png");
        response.end(Buffer.alloc(2048, 1));
        return;
      case "/big":
        response.setHeader("content-type", "text/plain");
        response.end(`START${"x".repeat(200_000)}END`);
        return;
      case "/redirect":
        response.statusCode = 302;
        response.setHeader("location", url.searchParams.get("to") ?? "/json");
        response.end();
        return;
      case "/slow":
        await new Promise((resolve) => setTimeout(resolve, 3_000));
        response.end("late");
        return;
      default:
        response.setHeader("content-type", "text/plain; charset=utf-8");
        response.end("hello från server");
    }
  });
});
afterAll(() => server.close());

const bypass = (): ToolContext => createToolContext({ io: new RecordingIOHandler({ network: "once" }), permissions: { mode: "bypass" } });
/** Default mode; the test server lives on this machine, so it is allow-listed unless a test says otherwise. */
const gated = (io: IOHandler, guardrails: Partial<Guardrails> = {}, options: { resolveHost?: ToolContext["resolveHost"] } = {}): ToolContext =>
  createToolContext({
    io,
    ...options,
    permissions: { guardrails: { ...defaultGuardrails(), localNetworkAllow: ["127.0.0.1"], ...guardrails } },
  });
const data = (result: ToolResult) => result.data as Record<string, unknown>;

describe("http: declaration", () => {
  it("is read-only only for GET and HEAD", () => {
    expect(httpTool.name).toBe("http");
    expect(httpTool.title).toBe("HTTP Request");
    expect(httpTool.capabilities).toEqual(["web.request"]);
    expect(httpTool.settingsModel).toBeNull();
    expect(tool.isReadOnly()).toBe(false);
    expect(tool.isDestructive()).toBe(true);
    expect(tool.isConcurrencySafe()).toBe(false);
    expect(tool.isReadOnly({ method: "GET", url: "http://x" })).toBe(true);
    expect(tool.isReadOnly({ method: "HEAD", url: "http://x" })).toBe(true);
    expect(tool.isConcurrencySafe({ method: "GET", url: "http://x" })).toBe(true);
    expect(tool.isReadOnly({ method: "POST", url: "http://x" })).toBe(false);
    expect(tool.isDestructive({ method: "DELETE", url: "http://x" })).toBe(true);
  });
});

describe("http: requests", () => {
  it("GETs JSON, pretty-printed, with selected headers and structured data", async () => {
    const result = await tool.run({ url: `${server.url}/json` }, bypass());
    expect(result.isError).toBe(false);
    expect(result.content).toContain("200 OK");
    expect(result.content).toContain("content-type: application/json");
    expect(result.content).toContain('etag: "v1"');
    expect(result.content).not.toContain("do-not-report");
    expect(result.content).toContain('{\n  "name": "neurosurfer",');
    expect(data(result)).toMatchObject({ status: 200, ok: true, json: { name: "neurosurfer", tags: ["a", "b"] } });
  });

  it("decodes text with its charset", async () => {
    const result = await tool.run({ url: `${server.url}/text` }, bypass());
    expect(result.content).toContain("hello från server");
  });

  it("POSTs JSON and text bodies with headers", async () => {
    const json = await tool.run({ method: "post", url: `${server.url}/echo`, json: { a: 1 }, headers: { "X-Token": "t1" } }, bypass());
    expect(json.isError).toBe(false);
    expect(data(json).json).toEqual({ method: "POST", contentType: "application/json", token: "t1", body: '{"a":1}' });
    const text = await tool.run({ method: "PUT", url: `${server.url}/echo`, body: "plain" }, bypass());
    expect(data(text).json).toMatchObject({ method: "PUT", body: "plain" });
  });

  it("reports a non-2xx status as an ok result", async () => {
    const result = await tool.run({ url: `${server.url}/missing` }, bypass());
    expect(result.isError).toBe(false);
    expect(result.content).toContain("404 Not Found");
    expect(result.content).toContain("no such thing");
    expect(data(result)).toMatchObject({ status: 404, ok: false });
  });

  it("follows redirects and says so", async () => {
    const result = await tool.run({ url: `${server.url}/redirect` }, bypass());
    expect(result.content).toContain(`(redirected to ${server.url}/json)`);
    expect(data(result).status).toBe(200);
  });

  it("answers HEAD without a body and describes binary bodies", async () => {
    const head = await tool.run({ method: "HEAD", url: `${server.url}/json` }, bypass());
    expect(head.isError).toBe(false);
    expect(head.content).toContain("(HEAD: no body)");
    const image = await tool.run({ url: `${server.url}/image` }, bypass());
    expect(image.content).toContain("(2048 bytes of image/png, not shown)");
  });

  it("caps a large body, keeping head and tail", async () => {
    const result = await tool.run({ url: `${server.url}/big` }, bypass());
    expect(result.content.length).toBeLessThanOrEqual(30_000);
    expect(result.content).toContain("START");
    expect(result.content).toContain("END");
    expect(result.content).toContain("characters omitted");
    expect(data(result).truncated).toBe(true);
  });

  it("reports network failures and time-outs as clear errors", async () => {
    const closed = await startTestServer(() => undefined);
    const address = closed.url;
    await closed.close();
    const refused = await tool.run({ url: `${address}/` }, bypass());
    expect(refused.isError).toBe(true);
    expect(refused.content).toContain(`Could not reach GET ${address}/: the connection was refused`);
    // Both are worth trying again a moment later.
    expect(refused).toMatchObject({ errorKind: "network", retryable: true });

    const slow = await tool.run({ url: `${server.url}/slow`, timeoutSeconds: 1 }, bypass());
    expect(slow.isError).toBe(true);
    expect(slow.content).toContain("did not answer within 1 s");
    expect(slow).toMatchObject({ errorKind: "timeout", retryable: true });
  });

  it("stops when the run is cancelled", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const ctx = createToolContext({ io: new RecordingIOHandler({ network: "once" }), permissions: { mode: "bypass" }, signal: controller.signal });
    const result = await tool.run({ url: `${server.url}/slow` }, ctx);
    expect(result.isError).toBe(true);
    expect(result.content).toContain("cancelled");
    expect(result).toMatchObject({ errorKind: "cancelled", retryable: false });
  });

  it("refuses bad input, naming the field", async () => {
    const cases: [unknown, string][] = [
      [{ url: "file:///etc/passwd" }, "`url`: expected an absolute http:// or https:// address"],
      [{ url: "not a url" }, "`url`"],
      [{}, "`url`"],
      [{ url: `${server.url}/`, method: "TRACE" }, "`method`"],
      [{ url: `${server.url}/`, body: "x" }, "`body`: a GET request cannot have a body"],
      [{ url: `${server.url}/`, method: "POST", body: "x", json: {} }, "`json`: give either `body` or `json`, not both"],
      [{ url: `${server.url}/`, headers: "x" }, "`headers`"],
      [{ url: `${server.url}/`, timeoutSeconds: 0 }, "`timeoutSeconds`"],
    ];
    for (const [args, expected] of cases) {
      const result = await tool.run(args, bypass());
      expect(result.isError, JSON.stringify(args)).toBe(true);
      expect(result.content).toContain(expected);
    }
    const badHeader = await tool.run({ url: `${server.url}/`, headers: { "bad header": "x" } }, bypass());
    expect(badHeader.isError).toBe(true);
    expect(badHeader.content).toContain("`headers.bad header`: not a valid header name");
  });
});

describe("http: permission gate", () => {
  it("lets GET through without asking", async () => {
    const io = new RecordingIOHandler({ network: "deny" });
    const result = await tool.run({ url: `${server.url}/json` }, gated(io));
    expect(result.isError).toBe(false);
    expect(io.asksOf("network")).toEqual([]);
  });

  it("asks a network approval carrying the method and URL for other methods", async () => {
    const io = new RecordingIOHandler({ network: "once" });
    const result = await tool.run({ method: "POST", url: `${server.url}/echo`, json: { id: 7 } }, gated(io));
    expect(result.isError).toBe(false);
    expect(io.asksOf("network")).toMatchObject([
      { kind: "network", method: "POST", url: `${server.url}/echo`, reason: 'Send an HTTP POST request with the JSON body {"id":7}.' },
    ]);
  });

  it("returns the person's feedback on a denial, without sending", async () => {
    const io = new RecordingIOHandler({ network: { decision: "deny", feedback: "use GET" } });
    const before = server.requests.length;
    const result = await tool.run({ method: "DELETE", url: `${server.url}/echo` }, gated(io));
    expect(result.isError).toBe(true);
    expect(result.content).toContain(`The person denied DELETE ${server.url}/echo.`);
    expect(result.content).toContain("use GET");
    expect(server.requests.length).toBe(before);
  });

  it("refuses without asking when the network is denied", async () => {
    const io = new RecordingIOHandler({ network: "once" });
    const result = await tool.run({ method: "POST", url: `${server.url}/echo` }, gated(io, { networkPolicy: "denied" }));
    expect(result.isError).toBe(true);
    expect(result.content).toContain("network access is denied");
    expect(io.asksOf("network")).toEqual([]);
  });
});

describe("http: the outbound-address guardrail", () => {
  /** A resolver that knows a few test names, and counts what it was asked. */
  function resolver(names: Record<string, string[]>) {
    const asked: string[] = [];
    const resolveHost = async (host: string) => {
      asked.push(host);
      const addresses = names[host];
      if (!addresses) throw Object.assign(new Error(`no such host ${host}`), { code: "ENOTFOUND" });
      return addresses;
    };
    return { resolveHost, asked };
  }
  const port = () => new URL(server.url).port;

  it.each([
    ["internal.test", "10.0.0.5", "a private network address"],
    ["linklocal.test", "169.254.10.10", "a link-local address"],
    ["metadata.test", "169.254.169.254", "the cloud metadata service"],
    ["v6.test", "fd00:ec2::254", "the cloud metadata service"],
  ])("refuses a GET to %s (%s) under a denying policy before any connection", async (host, address, words) => {
    const { resolveHost, asked } = resolver({ [host]: [address] });
    const io = new RecordingIOHandler({ network: "once" });
    const result = await tool.run({ url: `http://${host}:${port()}/json` }, gated(io, { localNetworkPolicy: "denied", localNetworkAllow: [] }, { resolveHost }));
    expect(result.isError).toBe(true);
    expect(result.content).toContain(`${host} leads to ${address}, ${words}`);
    expect(asked).toEqual([host]);
    expect(io.asksOf("network")).toEqual([]);
  });

  it("asks before a read reaches this machine, saying where it leads; denied, nothing connects", async () => {
    const { resolveHost } = resolver({ "looks-public.test": ["127.0.0.1"] });
    const io = new RecordingIOHandler({ network: "deny" });
    const before = server.requests.length;
    const result = await tool.run({ url: `http://looks-public.test:${port()}/json` }, gated(io, { localNetworkAllow: [] }, { resolveHost }));
    expect(result.isError).toBe(true);
    expect(result.content).toContain("The person denied GET");
    expect(io.asksOf("network")).toMatchObject([
      { kind: "network", method: "GET", preview: { kind: "request", reaches: "looks-public.test leads to 127.0.0.1, this machine (loopback)" } },
    ]);
    // The test server saw nothing: the refusal came before any connection.
    expect(server.requests.length).toBe(before);
  });

  it("connects to the address it checked, not to what the name resolves to later (no DNS rebinding)", async () => {
    // The name exists nowhere but in this resolver: the request reaches the test server only because the connection is pinned.
    const { resolveHost } = resolver({ "pinned.test": ["127.0.0.1"] });
    const io = new RecordingIOHandler({ network: "deny" });
    const result = await tool.run({ url: `http://pinned.test:${port()}/json` }, gated(io, { localNetworkAllow: [`pinned.test:${port()}`] }, { resolveHost }));
    expect(result.isError, result.content).toBe(false);
    expect(io.asksOf("network")).toEqual([]);
  });

  it("checks every redirect: a public-looking address that redirects into this machine is asked about", async () => {
    const { resolveHost, asked } = resolver({ "public.test": ["127.0.0.1"], "inside.test": ["127.0.0.1"] });
    const io = new RecordingIOHandler({ network: "deny" });
    const before = server.requests.length;
    const result = await tool.run(
      { url: `http://public.test:${port()}/redirect?to=${encodeURIComponent(`http://inside.test:${port()}/json`)}` },
      gated(io, { localNetworkAllow: [`public.test:${port()}`] }, { resolveHost }),
    );
    expect(result.isError).toBe(true);
    expect(asked).toEqual(["public.test", "inside.test"]);
    expect(io.asksOf("network")).toMatchObject([{ url: `http://inside.test:${port()}/json` }]);
    // Only the first hop reached the server.
    expect(server.requests.length).toBe(before + 1);
  });
});

describe("webTools", () => {
  it("returns fresh instances of the three web tools", async () => {
    const { webTools } = await import("./index");
    expect(webTools().map((each) => each.name)).toEqual(["http", "browse", "web_search"]);
    expect(webTools()[0]).not.toBe(webTools()[0]);
    for (const each of webTools()) {
      expect(each.domain).toBe("web");
      expect(each.origin).toBe("core");
      expect(each.verified).toBe(true);
    }
  });
});
