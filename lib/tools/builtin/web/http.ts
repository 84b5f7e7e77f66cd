import { fetch as undiciFetch, Headers as UndiciHeaders } from "undici";
import { z } from "zod";
import { checkOutbound, pinnedDispatcher } from "../../net/outbound";
import type { PermissionRequest } from "../../permissions/permission-request";
import { SECRET_MASK } from "../../secrets";
import { CoreTool } from "../shared/core-tool";
import type { ToolContext } from "../../tool-context";
import { ToolResult } from "../../tool-result";
import { MAX_RESULT_CHARACTERS, truncateMiddle } from "../shared/limits";
import { decodeText, describeFetchFailure, httpUrl, readCappedBody, requestSignal } from "./web-support";

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"] as const;
const READ_ONLY_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD"]);
const REDIRECTS: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
/** As fetch's own limit. */
const MAX_REDIRECTS = 20;
/** Most bytes of a body read at all; what reaches the model is capped further. */
const MAX_BODY_BYTES = 2_000_000;
/** Response headers worth reporting; cookies and the rest stay out of the transcript. */
const REPORTED_HEADERS = [
  "content-type",
  "content-length",
  "content-encoding",
  "location",
  "last-modified",
  "etag",
  "cache-control",
  "retry-after",
  "www-authenticate",
  "x-ratelimit-limit",
  "x-ratelimit-remaining",
  "x-ratelimit-reset",
];

/** RFC 9110 token characters. */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

const HttpArgs = z
  .object({
    method: z
      .preprocess((value) => (typeof value === "string" ? value.toUpperCase() : value), z.enum(METHODS))
      .default("GET")
      .describe("The HTTP method. GET and HEAD only read; the others may change something and need approval."),
    url: httpUrl("The absolute http:// or https:// address to call."),
    headers: z
      .record(z.string(), z.string())
      .optional()
      .describe('Request headers, e.g. { "Accept": "application/json" }.'),
    body: z.string().optional().describe("A text body to send (not with GET or HEAD). Use `json` for a JSON body instead."),
    json: z.unknown().optional().describe("A JSON value to send as the body, with Content-Type: application/json."),
    timeoutSeconds: z.number().int().min(1).max(300).default(30).describe("Give up after this many seconds."),
  })
  .superRefine((args, issues) => {
    // Checked here rather than on the record's key, whose own message does not say what is wrong.
    for (const [name, value] of Object.entries(args.headers ?? {})) {
      if (!HEADER_NAME.test(name)) {
        issues.addIssue({ code: "custom", path: ["headers", name], message: "not a valid header name; use letters, digits and - only" });
      } else if (/[\r\n\0]/.test(value)) {
        issues.addIssue({ code: "custom", path: ["headers", name], message: "a header value cannot contain line breaks" });
      }
    }
    if (args.body !== undefined && args.json !== undefined) {
      issues.addIssue({ code: "custom", path: ["json"], message: "give either `body` or `json`, not both" });
    }
    if ((args.body !== undefined || args.json !== undefined) && READ_ONLY_METHODS.has(args.method)) {
      const field = args.body !== undefined ? "body" : "json";
      issues.addIssue({ code: "custom", path: [field], message: `a ${args.method} request cannot have a body; use POST, PUT or PATCH` });
    }
  });
type HttpArgs = z.infer<typeof HttpArgs>;

/**
 * Sends one HTTP request and reports the status, the useful headers and the
 * body (JSON pretty-printed). GET and HEAD are read-only; other methods pass
 * the permission gate as "METHOD url".
 *
 * @example
 *   await new HttpTool().run({ url: "https://api.example.com/items/1" }, ctx);
 */
export class HttpTool extends CoreTool<HttpArgs> {
  constructor() {
    super({
      name: "http",
      title: "HTTP Request",
      icon: "globe",
      domain: "web",
      description:
        "Send an HTTP request (GET, HEAD, POST, PUT, PATCH, DELETE) and read the status, headers and body. A non-2xx status is reported, not treated as a failure. Use browse for pages that need a browser to render.",
      inputModel: HttpArgs,
      capabilities: ["web.request"],
    });
  }

  /**
   * Only GET and HEAD; without arguments nothing can be promised. Whether a call is safe beside others, and whether
   * it passes the permission gate, follow this (ToolBase's defaults).
   */
  override isReadOnly(args?: HttpArgs): boolean {
    if (args === undefined) return false;
    const method = typeof args.method === "string" ? args.method.toUpperCase() : "GET";
    return READ_ONLY_METHODS.has(method);
  }

  override progressMessage(args: HttpArgs): string {
    return `${args.method ?? "GET"} ${args.url}…`;
  }

  /** The method and address on the network channel, with what would be sent for the person to judge. */
  override async describeAction(args: HttpArgs): Promise<PermissionRequest[]> {
    const sent =
      args.json !== undefined
        ? `with the JSON body ${excerpt(JSON.stringify(args.json))}`
        : args.body !== undefined
          ? `with the body ${excerpt(args.body)}`
          : "without a body";
    const body = args.json !== undefined ? JSON.stringify(args.json, null, 2) : (args.body ?? null);
    const headers = shownHeaders(args);
    return [
      {
        kind: "network",
        method: args.method,
        url: args.url,
        reason: `Send an HTTP ${args.method} request ${sent}.`,
        preview: { kind: "request", method: args.method, url: args.url, headers, body },
      },
    ];
  }

  override async call(args: HttpArgs, ctx: ToolContext): Promise<ToolResult> {
    // undici's own Headers: since undici 8 its fetch is typed against them, not the global class.
    const headers = new UndiciHeaders(args.headers);
    let body: string | undefined = args.body;
    if (args.json !== undefined) {
      body = JSON.stringify(args.json);
      if (!headers.has("content-type")) headers.set("content-type", "application/json");
    }
    const target = `${args.method} ${args.url}`;
    const signal = requestSignal(args.timeoutSeconds, ctx.signal);

    // Redirects are followed here, one hop at a time, so each address is checked before anything connects to it.
    let url = new URL(args.url);
    let method: string = args.method;
    let redirected = false;
    let response: Response;
    let read: Awaited<ReturnType<typeof readCappedBody>>;
    for (let hop = 0; ; hop += 1) {
      const check = await checkOutbound(url, { method, headers: shownHeaders(args), body: body ?? null }, ctx);
      if (!check.allowed) return ToolResult.error(check.reason, { kind: check.kind });
      const dispatcher = pinnedDispatcher(check.addresses);
      try {
        response = (await undiciFetch(url, { method, headers, body, signal, redirect: "manual", dispatcher })) as unknown as Response;
        const location = response.headers.get("location");
        if (REDIRECTS.has(response.status) && location !== null && hop < MAX_REDIRECTS) {
          await response.body?.cancel();
          const next = new URL(location, url);
          // As browsers do: a 303, or a 301/302 after a POST, becomes a GET without a body; credentials stay with their origin.
          if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === "POST")) {
            method = "GET";
            body = undefined;
            headers.delete("content-type");
          }
          if (next.origin !== url.origin) for (const name of ["authorization", "proxy-authorization", "cookie"]) headers.delete(name);
          url = next;
          redirected = true;
          continue;
        }
        read = await readCappedBody(response, MAX_BODY_BYTES);
      } catch (error) {
        const failure = describeFetchFailure(error, target, args.timeoutSeconds, ctx.signal);
        return ToolResult.error(failure.message, { kind: failure.kind });
      } finally {
        void dispatcher.close().catch(() => undefined);
      }
      break;
    }

    const contentType = response.headers.get("content-type");
    const reported: Record<string, string> = {};
    for (const name of REPORTED_HEADERS) {
      const value = response.headers.get(name);
      if (value !== null) reported[name] = value;
    }

    let bodyText = "";
    let parsedJson: unknown;
    if (args.method !== "HEAD" && read.bytes.byteLength > 0) {
      if (isTextual(contentType)) {
        bodyText = decodeText(read.bytes, contentType);
        if (!read.truncated && looksLikeJson(contentType, bodyText)) {
          try {
            parsedJson = JSON.parse(bodyText);
            bodyText = JSON.stringify(parsedJson, null, 2);
          } catch {
            // Declared JSON that does not parse: show it as it came.
          }
        }
      } else {
        bodyText = `(${read.bytes.byteLength}${read.truncated ? "+" : ""} bytes of ${contentType ?? "binary data"}, not shown)`;
      }
    }
    const headerLines = Object.entries(reported).map(([name, value]) => `${name}: ${value}`);
    const lines = [
      `${response.status} ${response.statusText}`.trim(),
      ...(redirected ? [`(redirected to ${url.href})`] : []),
      ...headerLines,
    ];
    const cut = read.truncated ? `\n… [body cut after ${MAX_BODY_BYTES} bytes]` : "";
    const shownBody = truncateMiddle(bodyText, MAX_RESULT_CHARACTERS - 2_000);
    const text = `${lines.join("\n")}\n\n${args.method === "HEAD" ? "(HEAD: no body)" : shownBody === "" ? "(empty body)" : shownBody}${cut}`;
    return ToolResult.ok(text, {
      status: response.status,
      statusText: response.statusText,
      ok: response.ok,
      url: url.href,
      headers: reported,
      body: shownBody,
      ...(parsedJson !== undefined ? { json: parsedJson } : {}),
      truncated: read.truncated || shownBody.length < bodyText.length,
    });
  }
}

/** Header names that carry credentials: their values never reach an approval card. */
const CREDENTIAL_HEADER = /^(authorization|proxy-authorization|cookie|set-cookie)$|token|secret|api[-_]?key|password/i;

/** The request's headers as an approval card shows them: credentials masked. */
function shownHeaders(args: HttpArgs): { name: string; value: string }[] {
  return Object.entries(args.headers ?? {}).map(([name, value]) => ({ name, value: CREDENTIAL_HEADER.test(name) ? SECRET_MASK : value }));
}

function excerpt(text: string, limit = 500): string {
  return text.length > limit ? `${text.slice(0, limit)}… (${text.length} characters)` : text;
}

function isTextual(contentType: string | null): boolean {
  if (contentType === null) return true;
  const type = contentType.split(";")[0]!.trim().toLowerCase();
  return (
    type.startsWith("text/") ||
    /[/+](json|xml)$/.test(type) ||
    ["application/javascript", "application/x-www-form-urlencoded", "application/x-ndjson", "application/graphql"].includes(type)
  );
}

function looksLikeJson(contentType: string | null, text: string): boolean {
  if (contentType && /[/+]json\b/i.test(contentType)) return true;
  return contentType === null && /^\s*[[{]/.test(text);
}
