import { z } from "zod";
import type { ApiErrorBody, ApiIssue } from "@/lib/contracts/api-error";
import { ConflictError, NotFoundError, SecretKeyMismatchError } from "@/lib/persistence";
import { fieldPath } from "@/lib/tools/validation";
import { addressingRefusal } from "./access/addressing";
import { HttpError } from "./http-error";
import { authorize } from "./access/authorize";
import { authenticate, type Principal } from "./access/principal";
import { ROUTE_ACCESS, type RouteKey } from "./access/route-access";

/** Bodies larger than this are refused with 413 before they are parsed. */
export const MAX_BODY_BYTES = 5 * 1024 * 1024;

/**
 * Bodies nesting deeper than this are refused with 422: no workflow needs it,
 * and storing or validating such a value overflows the stack (JSON.stringify
 * and the template walk recurse), which would be a 500.
 */
export const MAX_BODY_DEPTH = 100;

export { HttpError } from "./http-error";

export function json(data: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(data), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...headers },
  });
}

export function toApiIssues(error: z.ZodError): ApiIssue[] {
  return error.issues.flatMap((issue): ApiIssue[] => {
    // A field the body may not carry (ownerId, role, createdBy…): named one by one, so a mass assignment is refused by name.
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => ({ path: fieldPath([...issue.path, key]), message: "is not a field this request takes; leave it out", code: issue.code }));
    }
    return [{ path: fieldPath(issue.path), message: issue.message.replace(/^Invalid input: /, ""), code: issue.code }];
  });
}

/** A failed call's answer, shaped by the contract every client reads (lib/contracts/api-error.ts). */
export function failure(body: ApiErrorBody, status: number, headers: Record<string, string> = {}): Response {
  return json(body, status, headers);
}

/** 422 with every issue, each naming its field. */
export function unprocessable(error: z.ZodError, what = "The request"): Response {
  const issues = toApiIssues(error);
  const summary = issues.map((issue) => `${issue.path}: ${issue.message}`).join("; ");
  return failure({ error: `${what} is not valid: ${summary}`, issues }, 422);
}

/**
 * Reads and parses a JSON body with `schema`: 415 unless it is JSON (which
 * also keeps cross-site form posts out), 413 when too large, 400 when it is
 * not JSON at all, 422 (via ZodError) when it does not fit.
 */
export async function readBody<Schema extends z.ZodType>(request: Request, schema: Schema): Promise<z.infer<Schema>> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!/^application\/json\b/i.test(contentType)) {
    throw new HttpError(415, "Send the body as JSON with the header Content-Type: application/json.");
  }
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  const text = await readLimited(request);
  let value: unknown;
  try {
    value = text.trim() === "" ? undefined : JSON.parse(text);
  } catch (error) {
    throw new HttpError(400, `The body is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (nestsDeeperThan(value, MAX_BODY_DEPTH)) {
    throw new HttpError(422, `The body nests deeper than ${MAX_BODY_DEPTH} levels; flatten it.`, {
      issues: [{ path: "(body)", message: `nests deeper than ${MAX_BODY_DEPTH} levels`, code: "too_big" }],
    });
  }
  const malformed = textWithLoneSurrogate(value);
  if (malformed !== null) {
    const path = malformed || "(body)";
    // Such text cannot be stored (the database's JSON refuses it) or shown faithfully; say which field holds it.
    throw new HttpError(422, `${path}: the text holds a lone UTF-16 surrogate (an escape such as \\ud800 without its pair); send well-formed Unicode text.`, {
      issues: [{ path, message: "holds a lone UTF-16 surrogate; expected well-formed Unicode text", code: "invalid_format" }],
    });
  }
  return schema.parse(value);
}

/**
 * The dotted path of the first string (value or key) in `value` that is not
 * well-formed UTF-16 (a lone surrogate, which JSON can carry as `\ud800`),
 * "" for the body itself, or null when there is none. Iterative, like the depth check.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function textWithLoneSurrogate(value: unknown): string | null {
  const pending: [unknown, (string | number)[]][] = [[value, []]];
  while (pending.length > 0) {
    const [current, path] = pending.pop()!;
    if (typeof current === "string") {
      if (LONE_SURROGATE.test(current)) return path.length === 0 ? "" : fieldPath(path);
      continue;
    }
    if (current === null || typeof current !== "object") continue;
    for (const [key, inner] of Object.entries(current)) {
      const innerPath = [...path, Array.isArray(current) ? Number(key) : key];
      if (LONE_SURROGATE.test(key)) return fieldPath(innerPath);
      pending.push([inner, innerPath]);
    }
  }
  return null;
}

/** Whether arrays and objects in `value` nest deeper than `limit`; iterative, so any depth is safe to check. */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length > 0) {
    const [current, depth] = pending.pop()!;
    if (current === null || typeof current !== "object") continue;
    if (depth >= limit) return true;
    for (const inner of Object.values(current)) pending.push([inner, depth + 1]);
  }
  return false;
}

async function readLimited(request: Request): Promise<string> {
  const bytes = await readBodyBytes(request, MAX_BODY_BYTES);
  if (bytes === "too-large") throw tooLarge();
  return new TextDecoder().decode(bytes);
}

/** A request's body, or "too-large" as soon as it passes `limitBytes` (the rest is not read). */
export async function readBodyBytes(request: Request, limitBytes: number): Promise<Uint8Array | "too-large"> {
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limitBytes) {
      await reader.cancel();
      return "too-large";
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

function tooLarge(): HttpError {
  return new HttpError(413, `The body is larger than ${MAX_BODY_BYTES / 1024 / 1024} MB.`);
}

/** Parses query parameters with `schema` (422 naming the parameter on failure). */
export function readQuery<Schema extends z.ZodType>(request: Request, schema: Schema): z.infer<Schema> {
  const params = Object.fromEntries(new URL(request.url).searchParams);
  return schema.parse(params);
}

export { pathId, PathIdSchema } from "./path-id";

type Handler<Context> = (request: Request, context: Context, principal: Principal) => Promise<Response>;
type PublicHandler<Context> = (request: Request, context: Context) => Promise<Response>;

/** 401 body of a request without a credential; the message says how to get one. */
export const SIGN_IN_FIRST = "Sign in first: open the sign-in link the studio printed when it started, or send Authorization: Bearer <access token>.";

/**
 * Wraps a route handler: the request must be addressed to this studio and, if
 * it changes something, come from its own pages (403 otherwise), carry a
 * credential (401 otherwise), and hold what the route's entry in ROUTE_ACCESS
 * says it needs (403 naming the scope, or 404 for what the caller may not
 * see); the handler receives who sent it. Every failure becomes a clear 4xx
 * (or an honest 5xx with nothing internal leaked): zod -> 422, not found ->
 * 404, conflict -> 409. proxy.ts runs the first checks too, so a route is
 * never open by accident.
 */
export function route<Context>(key: RouteKey, handler: Handler<Context>): PublicHandler<Context> {
  const access = ROUTE_ACCESS[key];
  return async (request, context) => {
    const refusal = addressingRefusal(request);
    if (refusal) return failure({ error: refusal.message }, refusal.status);
    try {
      const principal = await authenticate(request);
      if (!principal) return failure({ error: SIGN_IN_FIRST }, 401);
      await authorize(principal, access, await paramsOf(context), request);
      return await handler(request, context, principal);
    } catch (error) {
      return errorResponse(error);
    }
  };
}

/** The path's parameters Next hands a route (a promise since Next 15); none for a route without any. */
async function paramsOf(context: unknown): Promise<Record<string, string | string[] | undefined>> {
  if (context === null || typeof context !== "object" || !("params" in context)) return {};
  return ((await (context as { params: unknown }).params) ?? {}) as Record<string, string | string[] | undefined>;
}

/** A route open without a credential (signing in, /api/mcp with its own token); still refused when misaddressed or cross-site. */
export function publicRoute<Context>(handler: PublicHandler<Context>): PublicHandler<Context> {
  return async (request, context) => {
    const refusal = addressingRefusal(request);
    if (refusal) return failure({ error: refusal.message }, refusal.status);
    try {
      return await handler(request, context);
    } catch (error) {
      return errorResponse(error);
    }
  };
}

export function errorResponse(error: unknown): Response {
  if (error instanceof z.ZodError) return unprocessable(error);
  if (error instanceof HttpError) return failure({ error: error.message, ...error.details }, error.status);
  if (NotFoundError.isInstance(error)) return failure({ error: error.message }, 404);
  if (ConflictError.isInstance(error)) return failure({ error: error.message }, 409);
  if (SecretKeyMismatchError.isInstance(error)) return failure({ error: error.message }, 503);
  console.error("[studio] unexpected error in a route", error);
  return failure({ error: "Something went wrong on the server; the details are in its log." }, 500);
}
