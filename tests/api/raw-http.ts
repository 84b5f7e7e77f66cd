import http from "node:http";

/**
 * One HTTP request with nothing filled in for the caller: any Host, Origin or
 * Sec-Fetch-Site header (fetch refuses to send a foreign Host), and an
 * optional local address, so a test can play a browser on an attacker's page
 * or a second machine on the loopback network (127.0.0.2).
 */

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

export interface RawRequestOptions {
  method?: string;
  headers?: Record<string, string>;
  /** Sent as JSON (with its content type) unless a string. */
  body?: unknown;
  localAddress?: string;
}

export function rawRequest(url: string, options: RawRequestOptions = {}): Promise<RawResponse> {
  const target = new URL(url);
  const body = options.body === undefined ? undefined : typeof options.body === "string" ? options.body : JSON.stringify(options.body);
  const headers: Record<string, string> = { ...(body !== undefined && typeof options.body !== "string" ? { "content-type": "application/json" } : {}), ...options.headers };
  if (body !== undefined) headers["content-length"] = String(Buffer.byteLength(body));
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, method: options.method ?? "GET", headers, localAddress: options.localAddress, timeout: 30_000 },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text: Buffer.concat(chunks).toString("utf8") }));
        response.on("error", reject);
      },
    );
    request.on("timeout", () => request.destroy(new Error(`${options.method ?? "GET"} ${url} timed out`)));
    request.on("error", reject);
    request.end(body);
  });
}

/** The `name=value` of a Set-Cookie header, for sending it back. */
export function cookieOf(response: RawResponse, name: string): string | null {
  const header = response.headers["set-cookie"] ?? [];
  const found = header.map((line) => line.split(";")[0]!).find((pair) => pair.startsWith(`${name}=`));
  return found ?? null;
}
