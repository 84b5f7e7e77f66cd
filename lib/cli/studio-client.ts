import { RunEventSchema, type RunEvent } from "@/lib/contracts/run-event";
import { takeSseBlocks } from "@/lib/format/sse-block";
import { markedError } from "@/lib/marked-error";

/**
 * The CLI's side of the studio's HTTP API: requests with a personal access
 * token (Authorization: Bearer), and a run's Server-Sent Events read over
 * fetch. A refusal becomes a StudioRefusal whose message says what to do
 * (401: the token; 403: the scope it lacks; 404: nothing by that id the
 * token may see).
 */

export interface StudioAccess {
  /** `http://127.0.0.1:3000`, no trailing slash. */
  studio: string;
  token: string;
}

/** The studio answered with an error (status ≥ 400), or could not be reached (status 0). */
export class StudioRefusal extends markedError("neurosurfer.cli-refusal", "StudioRefusal") {
  constructor(
    message: string,
    readonly status: number,
    /** The scope a 403 named, if it did. */
    readonly scope: string | null = null,
  ) {
    super(message);
  }
}

/** What a 401 means to someone holding a token, whatever the studio's own words (written for browsers). */
export const TOKEN_REFUSED =
  "The studio refused the token (401): it is not a valid access token, or it has expired or been revoked. Make a new one on the studio's Settings -> Account page and set STUDIO_TOKEN to it.";

/** Sends one request; the parsed JSON body of a 2xx answer, else a StudioRefusal. `doing` says what it was for ("start the run"). */
export async function studioRequest<T>(access: StudioAccess, method: "GET" | "POST", path: string, doing: string, body?: unknown): Promise<T> {
  const response = await send(access, path, { method, ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { "content-type": "application/json" } }) });
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = text === "" ? null : JSON.parse(text);
  } catch {
    parsed = null;
  }
  if (response.ok) return parsed as T;
  throw refusal(response.status, parsed, text, doing);
}

function refusal(status: number, body: unknown, text: string, doing: string): StudioRefusal {
  const fields = body !== null && typeof body === "object" ? (body as { error?: unknown; scope?: unknown }) : {};
  const said = typeof fields.error === "string" ? fields.error : text.slice(0, 300) || `HTTP ${status}`;
  if (status === 401) return new StudioRefusal(TOKEN_REFUSED, status);
  if (status === 403) {
    const scope = typeof fields.scope === "string" ? fields.scope : null;
    const summary = scope ? `Could not ${doing}: this token does not carry ${scope}.` : `Could not ${doing}: the studio refused (403).`;
    return new StudioRefusal(`${summary}\nThe studio said: ${said}`, status, scope);
  }
  return new StudioRefusal(`Could not ${doing} (${status}): ${said}`, status);
}

async function send(access: StudioAccess, path: string, init: RequestInit & { headers?: Record<string, string> }): Promise<Response> {
  try {
    return await fetch(`${access.studio}${path}`, { ...init, headers: { ...init.headers, authorization: `Bearer ${access.token}` } });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new StudioRefusal(`Cannot reach the studio at ${access.studio}: ${cause?.code ?? cause?.message ?? (error as Error).message}. Is it running, and is --studio (or STUDIO_URL) its address?`, 0);
  }
}

/**
 * Follows a run's events from after `afterSeq` until the stream ends (the run
 * finished, or the server closed it), handing each to `onEvent`; returns the
 * last sequence number seen. The caller reconnects when the run is not over.
 */
export async function followRunEvents(access: StudioAccess, runId: string, afterSeq: number, onEvent: (event: RunEvent) => void, signal?: AbortSignal): Promise<number> {
  const response = await send(access, `/api/runs/${encodeURIComponent(runId)}/events?after=${afterSeq}`, { method: "GET", headers: { accept: "text/event-stream" }, ...(signal ? { signal } : {}) });
  if (!response.ok || !response.body) throw refusal(response.status, await response.json().catch(() => null), "", "follow the run");
  let last = afterSeq;
  let buffer = "";
  const decoder = new TextDecoder();
  const reader = response.body.getReader();
  try {
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) return last;
      const { blocks, rest } = takeSseBlocks(buffer + decoder.decode(chunk.value, { stream: true }));
      buffer = rest;
      for (const message of blocks) {
        if (message.event === "end") return last;
        if (message.data === "") continue;
        const event = RunEventSchema.safeParse(JSON.parse(message.data));
        if (!event.success) continue;
        last = Math.max(last, event.data.seq);
        onEvent(event.data);
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
