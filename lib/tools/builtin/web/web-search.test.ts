import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AutoApproveIOHandler } from "../../io-handler";
import { toInputJsonSchema, modelToolSchema } from "../../schemas";
import { secretsFromRecord } from "../../secrets";
import type { Tool } from "../../tool";
import { createToolContext, type ToolContext } from "../../tool-context";
import type { ToolResult } from "../../tool-result";
import { startTestServer, type TestServer } from "./test-server";
import { WebSearchTool } from "./web-search";

const API_KEY = "brave-test-key-7c1f9a";
const searchTool = new WebSearchTool();
const tool: Tool = searchTool;
let server: TestServer;
/** What the impersonated APIs answer next, by path. */
const answers = new Map<string, { status?: number; contentType?: string; body: string }>();

beforeAll(async () => {
  server = await startTestServer((request, response) => {
    const url = new URL(request.url, "http://localhost");
    const answer = answers.get(url.pathname);
    if (answer) {
      response.statusCode = answer.status ?? 200;
      response.setHeader("content-type", answer.contentType ?? "application/json");
      response.end(answer.body);
      return;
    }
    if (url.pathname === "/brave") {
      if (request.headers["x-subscription-token"] !== API_KEY) {
        response.statusCode = 401;
        response.end(JSON.stringify({ error: "invalid token" }));
        return;
      }
      const count = Number(url.searchParams.get("count"));
      const results = Array.from({ length: 10 }, (_, index) => ({
        title: `Result <strong>${index + 1}</strong> for ${url.searchParams.get("q")}`,
        url: `https://example.com/${index + 1}`,
        // A provider that echoes the key: it must still never reach the model.
        description: index === 0 ? `snippet &amp; key ${API_KEY}` : `snippet ${index + 1}`,
      })).slice(0, count);
      response.setHeader("content-type", "application/json");
      response.end(JSON.stringify({ type: "search", web: { results } }));
      return;
    }
    if (url.pathname === "/searxng/search") {
      if (url.searchParams.get("format") !== "json") {
        response.statusCode = 403;
        response.end("Forbidden");
        return;
      }
      response.setHeader("content-type", "application/json");
      response.end(
        JSON.stringify({
          query: url.searchParams.get("q"),
          results: [1, 2, 3, 4, 5, 6, 7].map((n) => ({ title: `Hit ${n}`, url: `https://searx.example/${n}`, content: `content ${n}` })),
        }),
      );
      return;
    }
    response.statusCode = 404;
    response.end("not found");
  });
});
afterAll(() => server.close());

function context(settings: Record<string, unknown>, secrets: Record<string, string> = { BRAVE_KEY: API_KEY }): ToolContext {
  return createToolContext({ io: new AutoApproveIOHandler(), settings, secrets: secretsFromRecord(secrets) });
}
const brave = () => context({ provider: "brave", endpoint: `${server.url}/brave` });
const searxng = () => context({ provider: "searxng", endpoint: `${server.url}/searxng/` });
const bound = { boundArgs: { api_key: "${BRAVE_KEY}" } };
const data = (result: ToolResult) => result.data as { results: { title: string; url: string; description: string }[] };

describe("web_search: declaration", () => {
  it("hides the key from the model and documents how to store it", () => {
    expect(searchTool.name).toBe("web_search");
    expect(searchTool.title).toBe("Web Search");
    expect(searchTool.capabilities).toEqual(["web.search"]);
    expect(searchTool.secretInputs).toEqual(["api_key"]);
    expect(searchTool.credentialHelp.endsWith("Store it in Settings → Secrets and reference it as ${NAME}.")).toBe(true);
    expect(tool.isReadOnly()).toBe(true);
    expect(tool.isDestructive()).toBe(false);
    expect(Object.keys(modelToolSchema(tool).inputSchema.properties as object)).toEqual(["query", "count"]);
    expect(tool.requiredSettings()).toEqual([]);
    const settings = toInputJsonSchema(searchTool.settingsModel!) as { properties: Record<string, unknown> };
    expect(Object.keys(settings.properties)).toEqual(["provider", "endpoint", "resultCount"]);
  });
});

describe("web_search: Brave", () => {
  it("sends the key and the count, and returns results without leaking the key", async () => {
    const before = server.requests.length;
    const result = await tool.run({ query: "neural surfing" }, brave(), bound);
    expect(result.isError).toBe(false);
    const request = server.requests[before]!;
    expect(request.headers["x-subscription-token"]).toBe(API_KEY);
    expect(new URL(request.url, "http://x").searchParams.get("q")).toBe("neural surfing");
    expect(new URL(request.url, "http://x").searchParams.get("count")).toBe("5");
    expect(data(result).results).toHaveLength(5);
    expect(data(result).results[1]).toEqual({ title: "Result 2 for neural surfing", url: "https://example.com/2", description: "snippet 2" });
    expect(result.content).toContain("1. Result 1 for neural surfing\n   https://example.com/1\n   snippet & key");
    expect(JSON.stringify(result.toJSON())).not.toContain(API_KEY);
  });

  it("takes the call's count over the setting", async () => {
    const result = await tool.run({ query: "q", count: 2 }, context({ endpoint: `${server.url}/brave`, resultCount: 7 }), bound);
    expect(data(result).results).toHaveLength(2);
    const defaulted = await tool.run({ query: "q" }, context({ endpoint: `${server.url}/brave`, resultCount: 7 }), bound);
    expect(data(defaulted).results).toHaveLength(7);
  });

  it("ignores a key the model tries to supply", async () => {
    const result = await tool.run({ query: "q", api_key: "model-made-up" }, brave());
    expect(result.isError).toBe(true);
    expect(result.content).toContain("`api_key`: Brave Search needs an API key");
    expect(result.content).toContain("Store it in Settings → Secrets");
  });

  it("turns a refused key into a clear error", async () => {
    const result = await tool.run({ query: "q" }, brave(), { boundArgs: { api_key: "wrong-key-123" } });
    expect(result.isError).toBe(true);
    expect(result.content).toContain("Brave Search refused the API key (HTTP 401)");
    expect(result.content).not.toContain("wrong-key-123");
  });

  it("reports an unset secret by name", async () => {
    const result = await tool.run({ query: "q" }, context({ endpoint: `${server.url}/brave` }, {}), bound);
    expect(result.isError).toBe(true);
    expect(result.content).toContain("the secret ${BRAVE_KEY} is not set");
  });

  it("turns bad JSON, unexpected shapes and server errors into clear errors", async () => {
    answers.set("/broken", { body: "<html>oops</html>", contentType: "text/html" });
    const notJson = await tool.run({ query: "q" }, context({ endpoint: `${server.url}/broken` }), bound);
    expect(notJson.isError).toBe(true);
    expect(notJson.content).toContain("answered with something that is not JSON: <html>oops</html>");

    answers.set("/shape", { body: JSON.stringify({ web: { results: "nope" } }) });
    const shape = await tool.run({ query: "q" }, context({ endpoint: `${server.url}/shape` }), bound);
    expect(shape.isError).toBe(true);
    expect(shape.content).toContain("without a list of web results");

    answers.set("/empty", { body: JSON.stringify({ type: "search", query: { original: "q" } }) });
    const empty = await tool.run({ query: "q" }, context({ endpoint: `${server.url}/empty` }), bound);
    expect(empty.isError).toBe(false);
    expect(empty.content).toBe("No results for “q”.");

    answers.set("/limited", { status: 429, body: "{}" });
    const limited = await tool.run({ query: "q" }, context({ endpoint: `${server.url}/limited` }), bound);
    expect(limited.content).toContain("rate-limiting");

    answers.set("/failing", { status: 500, body: `internal error for ${API_KEY}` });
    const failing = await tool.run({ query: "q" }, context({ endpoint: `${server.url}/failing` }), bound);
    expect(failing.isError).toBe(true);
    expect(failing.content).toContain("Brave Search answered HTTP 500: internal error for ••••••");
  });

  it("reports an unreachable provider", async () => {
    const closed = await startTestServer(() => undefined);
    await closed.close();
    const result = await tool.run({ query: "q" }, context({ endpoint: `${closed.url}/brave` }), bound);
    expect(result.isError).toBe(true);
    expect(result.content).toContain("Could not reach Brave Search");
    expect(result.content).toContain("refused");
  });
});

describe("web_search: SearXNG", () => {
  it("queries /search with format=json and needs no key", async () => {
    const before = server.requests.length;
    const result = await tool.run({ query: "open search", count: 3 }, searxng());
    expect(result.isError).toBe(false);
    const request = server.requests[before]!;
    expect(request.url).toBe("/searxng/search?q=open+search&format=json");
    expect(request.headers.authorization).toBeUndefined();
    expect(data(result).results).toEqual([
      { title: "Hit 1", url: "https://searx.example/1", description: "content 1" },
      { title: "Hit 2", url: "https://searx.example/2", description: "content 2" },
      { title: "Hit 3", url: "https://searx.example/3", description: "content 3" },
    ]);
  });

  it("sends a bound key as a bearer token", async () => {
    const before = server.requests.length;
    const result = await tool.run({ query: "q" }, searxng(), bound);
    expect(result.isError).toBe(false);
    expect(server.requests[before]!.headers.authorization).toBe(`Bearer ${API_KEY}`);
  });

  it("explains a refused json format", async () => {
    answers.set("/locked/search", { status: 403, body: "Forbidden", contentType: "text/plain" });
    const result = await tool.run({ query: "q" }, context({ provider: "searxng", endpoint: `${server.url}/locked` }));
    expect(result.isError).toBe(true);
    expect(result.content).toContain("Enable the json format");
  });
});

describe("web_search: bad input and settings", () => {
  it("names the field", async () => {
    const empty = await tool.run({ query: "  " }, brave(), bound);
    expect(empty.isError).toBe(true);
    expect(empty.content).toContain("`query`: give the words to search for");
    const count = await tool.run({ query: "q", count: 500 }, brave(), bound);
    expect(count.content).toContain("`count`");
    const noEndpoint = await tool.run({ query: "q" }, context({ provider: "searxng" }));
    expect(noEndpoint.isError).toBe(true);
    expect(noEndpoint.content).toContain("settings.endpoint");
    expect(noEndpoint.content).toContain("SearXNG has no public default");
    const badProvider = await tool.run({ query: "q" }, context({ provider: "google" }), bound);
    expect(badProvider.content).toContain("settings.provider");
    const badEndpoint = await tool.run({ query: "q" }, context({ endpoint: "ftp://x" }), bound);
    expect(badEndpoint.content).toContain("settings.endpoint");
  });
});
