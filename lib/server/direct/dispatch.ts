import type { IncomingMessage, ServerResponse } from "node:http";
import { SESSION_COOKIE } from "../access/principal";
import { serveHook } from "../hooks/transport";
import { MAX_BODY_BYTES } from "../http";
import { runEventsRoute, startRunRoute } from "../run-routes";
import { DISCARD_LIMIT_BYTES, discardRestOfBody, readNodeBody, sendWebResponse, webRequestOf } from "./node-bridge";
import { HOOK_PREFIXES } from "@/nodes/webhook/definition";

/**
 * The few requests scripts/serve.mjs hands to this process straight from
 * Node's HTTP server, past Next's routing: the ones a workflow's caller
 * repeats for every run (starting a run, following its events) and webhook
 * deliveries. Next's routing, its middleware pass and its request objects
 * cost more than the studio's own work on such a request (profiled under
 * bench/http.bench.ts), and these routes need none of it.
 *
 * The handlers are the same functions the app/ routes export, so both ways in
 * answer alike: each checks the address, the origin and the credential
 * itself (lib/server/http.ts `route`), as it does behind proxy.ts. Anything
 * unusual (an encoded or dotted path, another method, an absolute-form
 * target, a Host that is no plain host name) is left to Next, whose door
 * answers it as before.
 */

/** Where serve.mjs finds `serveDirect` (set at boot by a process that serves). */
export const DIRECT_ROUTES_KEY = Symbol.for("neurosurfer.direct-routes");

type RouteHandler = (request: Request, context: { params: Promise<{ id: string }> }) => Promise<Response>;

interface DirectRoute {
  method: "GET" | "POST";
  /** Matches the path (no query); its one group is the `id` parameter. */
  path: RegExp;
  handler: RouteHandler;
}

/** An id segment as path ids are (lib/server/http.ts PathIdSchema), never a dot segment: those Next resolves to another route. */
const ID = "([A-Za-z0-9_:-][A-Za-z0-9_.:-]{0,199})";

const ROUTES: readonly DirectRoute[] = [
  { method: "POST", path: new RegExp(`^/api/workflows/${ID}/runs$`), handler: startRunRoute },
  { method: "GET", path: new RegExp(`^/api/runs/${ID}/events$`), handler: runEventsRoute },
];

const PLAIN_HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/** Serves `request` when it is one of the direct routes; null hands it back to Next. */
export function serveDirect(request: IncomingMessage, response: ServerResponse): Promise<void> | null {
  const target = request.url ?? "";
  if (Object.values(HOOK_PREFIXES).some((prefix) => target.startsWith(prefix))) return serveHook(request, response);
  if (!target.startsWith("/api/")) return null;
  const query = target.indexOf("?");
  const pathname = query === -1 ? target : target.slice(0, query);
  for (const route of ROUTES) {
    if (request.method !== route.method) continue;
    const match = route.path.exec(pathname);
    if (!match) continue;
    if (!PLAIN_HOST.test(request.headers.host ?? "")) return null;
    return serveRoute(route, match[1]!, request, response);
  }
  return null;
}

function mayBeSignedIn(request: IncomingMessage): boolean {
  return /^Bearer\s/i.test(request.headers.authorization ?? "") || (request.headers.cookie ?? "").includes(`${SESSION_COOKIE}=`);
}

async function serveRoute(route: DirectRoute, id: string, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const aborted = new AbortController();
  // Only a client that left before its answer was complete aborts the handler's work. An answer sent in full needs no
  // abort, and that spares making an AbortError (with its stack) for every request.
  response.once("close", () => {
    if (!response.writableFinished) aborted.abort();
  });
  let body: Uint8Array | null = null;
  let complete = route.method !== "POST";
  // A body is read only from a request that carries a credential at all: the handler refuses one without before it
  // reads, so a stranger cannot have megabytes held here on the way to a 401.
  if (route.method === "POST" && mayBeSignedIn(request)) {
    ({ bytes: body, complete } = await readNodeBody(request, MAX_BODY_BYTES));
  }
  const answer = await route.handler(webRequestOf(request, body, aborted.signal), { params: Promise.resolve({ id }) });
  // The rest of a body left unread is read and thrown away, not cut off: closing a socket with data still arriving
  // sends a reset, and a client still sending loses the 413 it was answered with (1 in 4-6 tries at 7.5 MB).
  if (!complete) discardRestOfBody(request, DISCARD_LIMIT_BYTES);
  await sendWebResponse(answer, response, aborted.signal);
}

