import type { CapturedRequest } from "@/nodes/webhook/request-mapping";
import { MAX_BODY_DEPTH, nestsDeeperThan } from "../http";

/**
 * A webhook delivery as the hooks handler reads it, whichever server brought
 * it (scripts/serve.mjs hands /hooks/ over directly; under `next dev` a route
 * does): lower-case headers, the query, and the raw body read on demand
 * within a size limit.
 */
export interface HookRequest {
  method: string;
  /** What followed /hooks/, percent-decoded. */
  path: string;
  query: URLSearchParams;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** Reads the body, or "too-large" as soon as it passes `limitBytes` (nothing more is read). */
  readBody: (limitBytes: number) => Promise<Uint8Array | "too-large">;
}

export interface HookReply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The body as the workflow sees it, by content type; a problem (and its status) when it cannot be read. */
export function parseBody(contentType: string | undefined, raw: Uint8Array): { body: unknown } | { status: 400 | 415 | 422; problem: string } {
  if (raw.byteLength === 0) return { body: null };
  const type = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  const text = new TextDecoder("utf-8").decode(raw);
  if (type === "application/json" || type.endsWith("+json") || type === "") {
    let body: unknown;
    try {
      body = JSON.parse(text) as unknown;
    } catch {
      return type === "" ? { body: text } : { status: 400, problem: "The body is not valid JSON." };
    }
    // As the API's own bodies: what nests this deep is no sender's real payload, and walking it would exhaust the stack.
    if (nestsDeeperThan(body, MAX_BODY_DEPTH)) return { status: 422, problem: `The body nests deeper than ${MAX_BODY_DEPTH} levels; flatten it.` };
    return { body };
  }
  if (type === "application/x-www-form-urlencoded") return { body: fieldsOf(new URLSearchParams(text)) };
  if (type.startsWith("text/")) return { body: text };
  return { status: 415, problem: `The body's type ${JSON.stringify(type)} is not read here; send JSON, a form (application/x-www-form-urlencoded) or text.` };
}

/** Form fields or query parameters as an object; a name given more than once becomes a list. */
export function fieldsOf(parameters: URLSearchParams): Record<string, string | string[]> {
  const fields: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
  for (const [name, value] of parameters) {
    const present = fields[name];
    // Appended in place: a copy per repeat made 100,000 repeats of one name take minutes of the event loop.
    if (present === undefined) fields[name] = value;
    else if (Array.isArray(present)) present.push(value);
    else fields[name] = [present, value];
  }
  return { ...fields };
}

/** The delivery as the webhook node hands it on: only the kept headers (and those the mapping reads), never the credential's. */
export function captureRequest(request: HookRequest, body: unknown, keep: readonly string[], credentialHeader: string | null): CapturedRequest {
  const headers: Record<string, string> = {};
  const credential = credentialHeader?.toLowerCase();
  for (const name of keep) {
    const lower = name.toLowerCase();
    const value = request.headers[lower];
    if (value !== undefined && lower !== credential && lower !== "authorization" && lower !== "cookie") headers[lower] = value;
  }
  return { method: request.method, path: request.path, query: fieldsOf(request.query), headers, body };
}
