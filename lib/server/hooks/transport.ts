import type { IncomingMessage, ServerResponse } from "node:http";
import { readBodyBytes } from "../http";
import { DISCARD_LIMIT_BYTES, discardRestOfBody, readNodeBody } from "../direct/node-bridge";
import { startStudio } from "../studio";
import { deliver } from "./deliver";
import type { HookReply, HookRequest } from "./request";
import { HOOK_PREFIXES, type HookAddress } from "@/nodes/webhook/definition";

/**
 * The two ways a delivery reaches `deliver`: straight from Node's HTTP server
 * (scripts/serve.mjs hands every /hooks/ and /hooks-test/ request to `serveHook`
 * through ../direct/dispatch.ts, past Next's routing: the path senders load is
 * as short as it can be), and through the app/hooks route under `next dev`,
 * where there is no serve.mjs.
 */

/**
 * Which address `pathname` is (live /hooks/ or test /hooks-test/) and what
 * followed the prefix, decoded; the path is null when it is not valid
 * percent-encoding, "" when the pathname is neither.
 */
export function hookAddressOf(pathname: string): { address: HookAddress; path: string | null } {
  const address = (Object.keys(HOOK_PREFIXES) as HookAddress[]).find((each) => pathname.startsWith(HOOK_PREFIXES[each]));
  // serve.mjs routes by the raw request line; once the URL is parsed, dot segments may have led elsewhere.
  if (!address) return { address: "live", path: "" };
  try {
    return { address, path: decodeURIComponent(pathname.slice(HOOK_PREFIXES[address].length)).replace(/\/+$/, "") };
  } catch {
    return { address, path: null };
  }
}

export async function serveHook(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const url = new URL(request.url ?? "/", "http://hooks.invalid");
  const { address, path } = hookAddressOf(url.pathname);
  const studio = await startStudio();
  let reply: HookReply;
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
        readNodeBody(request, limit).then(({ bytes, complete }) => (complete ? bytes : "too-large")),
    };
    reply = await deliver(studio, hookRequest, address);
  }
  studio.metrics.webhookDelivered(address, reply.status);
  // A body left unread (refused before it was read, or too large) is read and dropped rather than cut off: closing
  // while it still arrives resets the connection, and the sender loses the answer.
  if (!request.readableEnded) discardRestOfBody(request, DISCARD_LIMIT_BYTES);
  response.writeHead(reply.status, { ...reply.headers, "content-length": Buffer.byteLength(reply.body) });
  response.end(reply.body);
}

/** The same for a Web request (the app/hooks route). */
export async function serveHookRequest(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const { address, path } = hookAddressOf(url.pathname);
  const studio = await startStudio();
  if (path === null) {
    studio.metrics.webhookDelivered(address, 400);
    return Response.json({ error: "The address is not valid percent-encoding." }, { status: 400 });
  }
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => (headers[name] = value));
  const reply = await deliver(studio, {
    method: request.method.toUpperCase(),
    path,
    query: url.searchParams,
    headers,
    readBody: (limit) => readBodyBytes(request, limit),
  }, address);
  studio.metrics.webhookDelivered(address, reply.status);
  return new Response(reply.status === 204 ? null : reply.body, { status: reply.status, headers: reply.headers });
}
