import { z } from "zod";
import { ApiErrorBodySchema } from "@/lib/contracts/api-error";
import { ApprovalDetailSchema } from "@/lib/contracts/approval";
import { RunDetailSchema } from "@/lib/contracts/run";
import { credentialHeaders, type Credential } from "./credential";
import { connectEventStream, runEventsOf, type RunEventJson } from "./sse-client";

/**
 * A small JSON client for the studio's API, plus polling helpers. Every
 * answer is returned (never thrown) so tests can assert on 4xx statuses.
 */

export interface ApiResponse<Body = Json> {
  status: number;
  headers: Headers;
  body: Body;
  /** The raw text of the body. */
  text: string;
}

// Answers are asserted on field by field; a loose type keeps those assertions short.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface RequestOptions {
  headers?: Record<string, string>;
  /** Sent as is (no JSON encoding, no content type added). */
  rawBody?: string | Uint8Array;
}

export class ApiClient {
  constructor(
    readonly baseUrl: string,
    /** Who the requests come from; none for an anonymous caller. */
    readonly credential: Credential = {},
  ) {}

  get(path: string, options: RequestOptions = {}): Promise<ApiResponse> {
    return this.request("GET", path, undefined, options);
  }

  post(path: string, body?: unknown, options: RequestOptions = {}): Promise<ApiResponse> {
    return this.request("POST", path, body, options);
  }

  put(path: string, body?: unknown, options: RequestOptions = {}): Promise<ApiResponse> {
    return this.request("PUT", path, body, options);
  }

  patch(path: string, body?: unknown, options: RequestOptions = {}): Promise<ApiResponse> {
    return this.request("PATCH", path, body, options);
  }

  delete(path: string, options: RequestOptions = {}): Promise<ApiResponse> {
    return this.request("DELETE", path, undefined, options);
  }

  async request(method: string, path: string, body?: unknown, options: RequestOptions = {}): Promise<ApiResponse> {
    const headers = credentialHeaders(this.credential);
    let payload: string | Uint8Array | undefined;
    if (options.rawBody !== undefined) payload = options.rawBody;
    else if (body !== undefined) {
      payload = JSON.stringify(body);
      headers["content-type"] = "application/json";
    }
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: { ...headers, ...options.headers },
      body: payload as BodyInit | undefined,
      redirect: "manual",
      // An event stream never ends by itself; nothing else should take this long.
      signal: AbortSignal.timeout(60_000),
    });
    const text = await response.text();
    let parsed: Json = text;
    if ((response.headers.get("content-type") ?? "").includes("application/json") && text !== "") {
      parsed = JSON.parse(text);
      // Every JSON failure, whatever the route, has the one error shape clients read.
      if (response.status >= 400) conform(ApiErrorBodySchema, parsed, `${method} ${path} → ${response.status}`);
    }
    return { status: response.status, headers: response.headers, body: parsed, text };
  }

  /** The JSON body of a request that must answer `expected`; otherwise fails with what came back. */
  async expect(expected: number, method: string, path: string, body?: unknown): Promise<Json> {
    const response = await this.request(method, path, body);
    if (response.status !== expected) {
      throw new Error(`${method} ${path}: expected ${expected}, got ${response.status}: ${response.text.slice(0, 2000)}`);
    }
    return response.body;
  }

  // The flows tests repeat, spelled once.

  async createWorkflow(definition: unknown): Promise<Json> {
    return (await this.expect(201, "POST", "/api/workflows", definition)).workflow;
  }

  async startRun(workflowId: string, inputs: Record<string, unknown> = {}): Promise<Json> {
    return (await this.expect(201, "POST", `/api/workflows/${workflowId}/runs`, { inputs })).run;
  }

  async getRun(runId: string): Promise<Json> {
    const { run } = await this.expect(200, "GET", `/api/runs/${runId}`);
    conform(RunDetailSchema, run, `GET /api/runs/${runId}`);
    return run;
  }

  async pendingApprovals(runId?: string): Promise<Json[]> {
    const query = runId ? `&runId=${runId}` : "";
    const { approvals } = await this.expect(200, "GET", `/api/approvals?status=pending${query}`);
    conform(z.array(ApprovalDetailSchema), approvals, "GET /api/approvals");
    return approvals;
  }

  /** Polls until the run has a pending approval, and returns it. */
  async waitForApproval(runId: string, timeoutMs = 15_000): Promise<Json> {
    return waitFor(
      async () => {
        const [approval] = await this.pendingApprovals(runId);
        return approval;
      },
      { timeoutMs, what: `a pending approval of run ${runId}` },
    );
  }

  /** Polls until the run reaches one of `statuses` (default: finished), and returns it. */
  async waitForRun(runId: string, statuses: string[] = ["succeeded", "failed", "cancelled"], timeoutMs = 20_000): Promise<Json> {
    let last: Json = null;
    return waitFor(
      async () => {
        last = await this.getRun(runId);
        return statuses.includes(last.status) ? last : undefined;
      },
      { timeoutMs, what: () => `run ${runId} to be ${statuses.join(" or ")} (last: ${last?.status}, error: ${last?.error})` },
    );
  }

  /** Every stored event of a finished run, read through the SSE endpoint (which ends after the last one). */
  async events(runId: string): Promise<RunEventJson[]> {
    const stream = await connectEventStream(`${this.baseUrl}/api/runs/${runId}/events`, this.credential);
    try {
      return runEventsOf(await stream.rest(15_000));
    } finally {
      stream.close();
    }
  }

  /** Counts of everything a request could write, to show that a refused one wrote nothing. */
  /**
   * Every row of a paged list (GET /api/runs or /api/workflows with `query`), following each page's nextCursor, 200 at a time.
   * @example const runs = await api.everyRow("runs", `workflowId=${id}`);
   */
  async everyRow(list: "runs" | "workflows", query = ""): Promise<Json[]> {
    const rows: Json[] = [];
    let cursor: string | null = null;
    do {
      const suffix: string = cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`;
      const body: Json = await this.expect(200, "GET", `/api/${list}?limit=200${query ? `&${query}` : ""}${suffix}`);
      rows.push(...(body[list] as Json[]));
      cursor = body.page.nextCursor as string | null;
    } while (cursor !== null);
    return rows;
  }

  async counts(): Promise<Record<string, number>> {
    const workflows = await this.everyRow("workflows");
    const versions = await Promise.all(
      workflows.map(async (workflow) => (await this.expect(200, "GET", `/api/workflows/${workflow.id}/versions`)).versions.length as number),
    );
    return {
      workflows: workflows.length,
      versions: versions.reduce((sum, count) => sum + count, 0),
      runs: (await this.expect(200, "GET", "/api/runs?limit=1")).page.total,
      approvals: (await this.expect(200, "GET", "/api/approvals?limit=1000")).approvals.length,
      pendingApprovals: (await this.expect(200, "GET", "/api/approvals?status=pending&limit=1000")).approvals.length,
      secrets: (await this.expect(200, "GET", "/api/secrets")).secrets.length,
    };
  }
}

/** Polls `check` until it returns something other than undefined; fails after `timeoutMs` naming what it waited for. */
export async function waitFor<T>(
  check: () => Promise<T | undefined> | T | undefined,
  options: { timeoutMs?: number; intervalMs?: number; what: string | (() => string) },
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 15_000);
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) {
      throw new Error(`Timed out waiting for ${typeof options.what === "function" ? options.what() : options.what}.`);
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 50));
  }
}

/** Fails, naming the answer and the field, when `value` is not what the contract (lib/contracts) says `what` returns. */
export function conform(schema: z.ZodType, value: unknown, what: string): void {
  const result = schema.safeParse(value);
  if (!result.success) {
    const issues = result.error.issues.map((issue) => `${issue.path.join(".") || "(body)"}: ${issue.message}`).join("; ");
    throw new Error(`${what} answered outside its contract: ${issues}\n${JSON.stringify(value).slice(0, 2000)}`);
  }
}
