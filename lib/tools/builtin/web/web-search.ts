import { z } from "zod";
import { CoreTool } from "../shared/core-tool";
import type { ToolContext } from "../../tool-context";
import { ToolResult } from "../../tool-result";
import type { ToolErrorKind } from "../../tool-error";
import { decodeText, describeFetchFailure, isHttpUrl, readCappedBody, requestSignal } from "./web-support";

export const BRAVE_SEARCH_ENDPOINT = "https://api.search.brave.com/res/v1/web/search";
const SEARCH_TIMEOUT_SECONDS = 20;
const MAX_RESPONSE_BYTES = 2_000_000;
const MAX_RESULTS = 20;

const PROVIDER_NAMES = { brave: "Brave Search", searxng: "SearXNG" } as const;

/** Which search service to ask, and where. Chosen by whoever builds the workflow. */
export const WebSearchSettings = z
  .object({
    provider: z
      .enum(["brave", "searxng"])
      .default("brave")
      .meta({ title: "Provider", description: "Brave Search (needs an API key) or a SearXNG instance you run." }),
    endpoint: z
      .string()
      .trim()
      .refine(isHttpUrl, "expected an absolute http:// or https:// address")
      .optional()
      .meta({
        title: "Endpoint",
        description: `The search service's address. Brave defaults to ${BRAVE_SEARCH_ENDPOINT}; SearXNG needs your instance's address, e.g. http://localhost:8080.`,
      }),
    resultCount: z
      .number()
      .int()
      .min(1)
      .max(MAX_RESULTS)
      .default(5)
      .meta({ title: "Results", description: "How many results to return when the call does not say." }),
  })
  .superRefine((settings, issues) => {
    if (settings.provider === "searxng" && settings.endpoint === undefined) {
      issues.addIssue({
        code: "custom",
        path: ["endpoint"],
        message: "SearXNG has no public default; give the address of your SearXNG instance, e.g. http://localhost:8080",
      });
    }
  })
  .meta({ title: "Web search", description: "The search service this step asks." });
export type WebSearchSettings = z.infer<typeof WebSearchSettings>;

const WebSearchArgs = z.object({
  query: z.string().trim().min(1, "give the words to search for").max(400).describe("What to search for, as you would type it into a search engine."),
  count: z.number().int().min(1).max(MAX_RESULTS).optional().describe("How many results to return; defaults to the step's setting."),
  api_key: z.string().optional().describe("The search provider's API key. Bound by the workflow, never given by the model."),
});
type WebSearchArgs = z.infer<typeof WebSearchArgs>;

/** One search hit. */
export interface SearchResult {
  title: string;
  url: string;
  description: string;
}

/** A failure of the provider, already worded for the model. */
class ProviderError extends Error {
  constructor(
    message: string,
    readonly kind: ToolErrorKind = "failed",
  ) {
    super(message);
  }
}

/** HTTP statuses that say "not now" rather than "not this": worth searching again a moment later. */
function statusKind(status: number): ToolErrorKind {
  return status === 429 || status >= 500 ? "unavailable" : "failed";
}

/**
 * Searches the web through Brave Search or a SearXNG instance and returns
 * titles, links and snippets.
 *
 * @example
 *   const ctx = createToolContext({ io, settings: { provider: "brave" }, secrets });
 *   await new WebSearchTool().run({ query: "zod 4 release notes" }, ctx, { boundArgs: { api_key: "${BRAVE_API_KEY}" } });
 */
export class WebSearchTool extends CoreTool<WebSearchArgs, WebSearchSettings> {
  constructor() {
    super({
      name: "web_search",
      title: "Web Search",
      icon: "search",
      domain: "web",
      description:
        "Search the web and return the top results' titles, links and snippets. Follow up with http or browse to read a result.",
      inputModel: WebSearchArgs,
      capabilities: ["web.search"],
      settingsModel: WebSearchSettings,
      secretInputs: ["api_key"],
      credentialHelp:
        "For Brave Search, create an API key (a subscription token) at https://api-dashboard.search.brave.com; the free plan works. A SearXNG instance needs one only if you put it behind a token. Store it in Settings → Secrets and reference it as ${NAME}.",
      readOnly: true,
    });
  }

  override progressMessage(args: WebSearchArgs): string {
    return `Searching the web for “${args.query}”…`;
  }

  override async call(args: WebSearchArgs, ctx: ToolContext<WebSearchSettings>): Promise<ToolResult> {
    const { provider } = ctx.settings;
    const providerName = PROVIDER_NAMES[provider];
    const count = args.count ?? ctx.settings.resultCount;
    if (provider === "brave" && args.api_key === undefined) {
      return ToolResult.error(`\`api_key\`: ${providerName} needs an API key and none is bound to this step. ${this.credentialHelp}`, { kind: "invalid-input" });
    }
    try {
      const results = provider === "brave" ? await this.searchBrave(args, count, ctx) : await this.searchSearxng(args, count, ctx);
      if (results.length === 0) return ToolResult.ok(`No results for “${args.query}”.`, { query: args.query, provider, results });
      const lines = results.map((result, index) =>
        [`${index + 1}. ${result.title || "(untitled)"}`, `   ${result.url}`, ...(result.description ? [`   ${result.description}`] : [])].join("\n"),
      );
      return ToolResult.ok(`${providerName} results for “${args.query}”:\n\n${lines.join("\n\n")}`, { query: args.query, provider, results });
    } catch (error) {
      if (error instanceof ProviderError) return ToolResult.error(error.message, { kind: error.kind });
      throw error;
    }
  }

  private async searchBrave(args: WebSearchArgs, count: number, ctx: ToolContext<WebSearchSettings>): Promise<SearchResult[]> {
    const url = new URL(ctx.settings.endpoint ?? BRAVE_SEARCH_ENDPOINT);
    url.searchParams.set("q", args.query);
    url.searchParams.set("count", String(count));
    const body = await this.getJson(url, { accept: "application/json", "x-subscription-token": args.api_key ?? "" }, ctx);
    const results = (body as { web?: { results?: unknown } } | null)?.web?.results;
    // Brave leaves out `web` entirely when nothing matched.
    if (results === undefined && body !== null && typeof body === "object" && !("web" in body)) return [];
    if (!Array.isArray(results)) throw new ProviderError("Brave Search answered without a list of web results (web.results). Check the endpoint setting.");
    return results.slice(0, count).map((item) => toResult(item, "description"));
  }

  private async searchSearxng(args: WebSearchArgs, count: number, ctx: ToolContext<WebSearchSettings>): Promise<SearchResult[]> {
    const base = (ctx.settings.endpoint ?? "").replace(/\/+$/, "");
    const url = new URL(base.endsWith("/search") ? base : `${base}/search`);
    url.searchParams.set("q", args.query);
    url.searchParams.set("format", "json");
    const headers: Record<string, string> = { accept: "application/json" };
    if (args.api_key !== undefined) headers.authorization = `Bearer ${args.api_key}`;
    const body = await this.getJson(url, headers, ctx);
    const results = (body as { results?: unknown } | null)?.results;
    if (!Array.isArray(results)) throw new ProviderError("SearXNG answered without a list of results. Check the endpoint setting.");
    return results.slice(0, count).map((item) => toResult(item, "content"));
  }

  /** GETs `url` and parses JSON, turning every failure into a {@link ProviderError}. */
  private async getJson(url: URL, headers: Record<string, string>, ctx: ToolContext<WebSearchSettings>): Promise<unknown> {
    const providerName = PROVIDER_NAMES[ctx.settings.provider];
    const target = `${providerName} (${url.origin}${url.pathname})`;
    let response: Response;
    let text: string;
    try {
      response = await fetch(url, { headers, signal: requestSignal(SEARCH_TIMEOUT_SECONDS, ctx.signal) });
      const read = await readCappedBody(response, MAX_RESPONSE_BYTES);
      text = decodeText(read.bytes, response.headers.get("content-type"));
    } catch (error) {
      const failure = describeFetchFailure(error, target, SEARCH_TIMEOUT_SECONDS, ctx.signal);
      throw new ProviderError(failure.message, failure.kind);
    }
    if (!response.ok) throw new ProviderError(describeStatus(ctx.settings.provider, response.status, text), statusKind(response.status));
    try {
      return JSON.parse(text);
    } catch {
      throw new ProviderError(
        `${target} answered with something that is not JSON: ${excerpt(text)}. Check the endpoint setting` +
          (ctx.settings.provider === "searxng" ? " and that the instance allows format=json." : "."),
      );
    }
  }
}

function describeStatus(provider: WebSearchSettings["provider"], status: number, body: string): string {
  const name = PROVIDER_NAMES[provider];
  if (status === 401 || status === 403) {
    if (provider === "searxng") {
      return `SearXNG refused the search (HTTP ${status}). Enable the json format in the instance's settings.yml (search.formats), or bind the right token to \`api_key\`.`;
    }
    return `Brave Search refused the API key (HTTP ${status}). Check the secret bound to \`api_key\`: it must be a valid subscription token.`;
  }
  if (status === 429) return `${name} is rate-limiting this key (HTTP 429). Wait a moment before searching again.`;
  return `${name} answered HTTP ${status}: ${excerpt(body)}`;
}

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat === "") return "(empty)";
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
}

function toResult(item: unknown, snippetField: "description" | "content"): SearchResult {
  const record = (item ?? {}) as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === "string" ? stripTags(value) : "");
  return { title: text(record.title), url: typeof record.url === "string" ? record.url : "", description: text(record[snippetField]) };
}

/** Brave marks matches with <strong>; the model wants plain text. */
function stripTags(html: string): string {
  return html
    .replace(/<[^>]*>/g, "")
    .replace(/&(amp|lt|gt|quot|#39);/g, (_match, entity: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" })[entity] ?? "")
    .trim();
}
