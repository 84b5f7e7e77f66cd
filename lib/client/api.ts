import { ApiErrorBodySchema, type ApiIssue } from "@/lib/contracts/api-error";
import { readSseBlocks, type SseBlock } from "@/lib/format/sse-block";
import { askToReauthenticate } from "./reauthentication";

export type { ApiIssue };

/** A failed API call: the server's message, its status, and any field issues. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly issues: ApiIssue[] = [],
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/**
 * Set once the person signs out: the requests still under way (a live list's
 * fetch, the inbox count) are refused from then on, and must not send the
 * page to the sign-in page with a `next` of their own, racing the sign-out's.
 */
let signingOut = false;

export function expectSignOut(): void {
  signingOut = true;
}

/**
 * Calls the studio's API with JSON in and out. Failures throw an ApiError
 * carrying the server's message, which is written to be shown as is.
 *
 * @example
 *   const { workflows } = await api<{ workflows: WorkflowSummary[] }>("/api/workflows");
 */
/** A request's options: a JSON `body`, or a `file` sent as it is (its type as the content type). */
export interface ApiInit {
  method?: string;
  body?: unknown;
  file?: Blob;
  signal?: AbortSignal;
}

export async function api<T>(path: string, init: ApiInit = {}): Promise<T> {
  try {
    return await request<T>(path, init);
  } catch (error) {
    // A privileged change after a while: confirm who you are, then the same request once more.
    if (error instanceof ApiError && error.status === 403 && error.body.reauthenticate === true && (await askToReauthenticate(error.message))) {
      return request<T>(path, init);
    }
    throw error;
  }
}

async function request<T>(path: string, init: ApiInit): Promise<T> {
  let response: Response;
  const sends = init.body !== undefined || init.file !== undefined;
  try {
    response = await fetch(path, {
      method: init.method ?? (sends ? "POST" : "GET"),
      headers: init.file ? { "content-type": init.file.type || "application/octet-stream" } : sends ? { "content-type": "application/json" } : undefined,
      body: init.file ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
      signal: init.signal,
      cache: "no-store",
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") throw error;
    throw new ApiError(0, "The studio did not answer. Check that it is still running, then try again.");
  }
  if (response.status === 204) return undefined as T;
  // An abort while the body is still arriving is an abort, not an empty answer: a caller would take `{}` for the result.
  const body = (await response.json().catch((error: unknown) => {
    if (init.signal?.aborted) throw error;
    return {};
  })) as Record<string, unknown>;
  if (!response.ok) throw failure(response.status, body);
  return body as T;
}

/** A refused request as an ApiError; a 401 sends the page to sign in again. */
function failure(status: number, body: Record<string, unknown>): ApiError {
  if (status === 401 && typeof window !== "undefined" && !signingOut) {
    // A full page load on purpose: the session is gone, so nothing on this page is worth keeping.
    window.location.href = new URL(`/login?next=${encodeURIComponent(window.location.pathname)}`, window.location.origin).href;
  }
  // Read through the contract: a body that is not one (a proxy's error page) still gives a message.
  const parsed = ApiErrorBodySchema.safeParse(body);
  if (!parsed.success) return new ApiError(status, `The request failed (${status}).`, [], body);
  return new ApiError(status, parsed.data.error, parsed.data.issues ?? [], body);
}

/**
 * POSTs JSON and reads the answer as server-sent events, one block at a time
 * as they arrive (the Architect's drafts). A refusal (a 422 naming the field)
 * throws an ApiError before any event; aborting `signal` ends the stream.
 */
export async function* postForEvents(path: string, body: unknown, signal: AbortSignal): AsyncGenerator<SseBlock> {
  let response: Response;
  try {
    response = await fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body), signal, cache: "no-store" });
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") throw error;
    throw new ApiError(0, "The studio did not answer. Check that it is still running, then try again.");
  }
  if (!response.ok || !response.body) throw failure(response.status, (await response.json().catch(() => ({}))) as Record<string, unknown>);
  yield* readSseBlocks(response.body);
}
