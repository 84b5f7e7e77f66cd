import type { IncomingMessage, ServerResponse } from "node:http";
import { readBodyBytes } from "../http";
import { startStudio } from "../studio";
import { deliver } from "./deliver";
import type { HookReply, HookRequest } from "./request";

/**
 * The two ways a delivery reaches `deliver`: straight from Node's HTTP server
 * (scripts/serve.mjs hands every /hooks/ request to `serveHook`, past Next's
 * routing: the path senders load is as short as it can be), and through the
 * app/hooks route under `next dev`, where there is no serve.mjs.
 */

export const HOOKS_PREFIX = "/hooks/";
/** Where serve.mjs finds `serveHook` (set at boot by a process that serves). */
export const HOOKS_HANDLER_KEY = Symbol.for("neurosurfer.hooks");

/** What followed /hooks/ in `pathname`, decoded; null when it is not valid percent-encoding. */
export function hookPathOf(pathname: string): string | null {
  // serve.mjs routes by the raw request line; once the URL is parsed, dot segments may have led elsewhere.
  if (!pathname.startsWith(HOOKS_PREFIX)) return "";
  try {
    return decodeURIComponent(pathname.slice(HOOKS_PREFIX.length)).replace(/\/+$/, "");
  } catch {
    return null;
  }
}

export async function serveHook(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const url = new URL(request.url ?? "/", "http://hooks.invalid");
  const path = hookPathOf(url.pathname);
  let reply: HookReply;
  let tooLarge = false;
  if (path === null) {
    reply = { status: 400, headers: { "content-type": "application/json; charset=utf-8" }, body: JSON.stringify({ error: "The address is not valid percent-encoding." }) };
  } else {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
    const hookRequest: HookRequest = {
      method: (request.method ?? "GET").toUpperCase(),
      path,
      query: url.searchParams,
      headers,
      readBody: (limit) =>
        readNodeBody(request, limit).then((body) => {
          tooLarge = body === "too-large";
          return body;
        }),
    };
    reply = await deliver(await startStudio(), hookRequest);
  }
  // A body left unread (refused before it was read, or too large) is not drained: the connection closes after the answer.
  const bodiless = !request.headers["transfer-encoding"] && (request.headers["content-length"] ?? "0") === "0";
  if (bodiless) request.resume();
  const unread = tooLarge || (!bodiless && !request.readableEnded);
  response.writeHead(reply.status, { ...reply.headers, ...(unread ? { connection: "close" } : {}), "content-length": Buffer.byteLength(reply.body) });
  response.end(reply.body);
  if (unread) response.on("finish", () => request.destroy());
}

function readNodeBody(request: IncomingMessage, limit: number): Promise<Uint8Array | "too-large"> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        request.off("data", onData);
        request.pause();
        resolve("too-large");
        return;
      }
      chunks.push(chunk);
    };
    request.on("data", onData);
    request.once("end", () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    request.once("error", reject);
  });
}

/** The same for a Web request (the app/hooks route). */
export async function serveHookRequest(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const path = hookPathOf(url.pathname);
  if (path === null) return Response.json({ error: "The address is not valid percent-encoding." }, { status: 400 });
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => (headers[name] = value));
  const reply = await deliver(await startStudio(), {
    method: request.method.toUpperCase(),
    path,
    query: url.searchParams,
    headers,
    readBody: (limit) => readBodyBytes(request, limit),
  });
  return new Response(reply.status === 204 ? null : reply.body, { status: reply.status, headers: reply.headers });
}
