import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { waitFor } from "./api-client";
import { credentialHeaders } from "./credential";
import { BYPASS, chain, removeWorkFolders, shellNode, workFolder, writeFileWorkflow } from "./fixtures";
import { rawRequest } from "./raw-http";
import { setupStudioServer } from "./studio-server";

/**
 * GET /metrics (and /api/metrics) over HTTP, in Prometheus' text format: runs, steps and approvals counted from the
 * run events, the approvals waiting now read from the database, and the process's own figures; a scraper's token needs
 * `metrics:read` and nothing more.
 */

// One slot: on PostgreSQL a second run waits in the queue while the first holds it.
const server = setupStudioServer({ env: { STUDIO_WORKER_CONCURRENCY: "1" } });

afterAll(() => removeWorkFolders());

/** The value of the sample `name{labels}` (labels in any order; all of them must match), or null when there is none. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | null {
  for (const line of text.split("\n")) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((pair) => [pair[1], pair[2]]));
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  return null;
}

async function scrape(path = "/metrics", headers?: Record<string, string>): Promise<{ status: number; type: string | null; text: string }> {
  const response = await fetch(`${server.url}${path}`, { headers: headers ?? credentialHeaders(server.client().credential) });
  return { status: response.status, type: response.headers.get("content-type"), text: await response.text() };
}

describe("the studio's metrics", () => {
  it("count runs, steps and approvals as they happen, and read what waits now from the database", async () => {
    const api = server.client();
    const root = workFolder("studio-metrics-");
    const before = (await scrape()).text;
    const listed = await api.createWorkflow({
      name: "Metrics: list",
      nodes: [
        { id: "in", kind: "input", fields: [] },
        { id: "list", kind: "tool", tool: "list_dir", settings: { root }, arguments: { path: "." } },
      ],
      edges: chain("in", "list"),
    });
    const listing = await api.startRun(listed.id);
    await api.waitForRun(listing.id);
    const writing = await api.startRun((await api.createWorkflow(writeFileWorkflow(root, { name: "Metrics: write" }))).id, { text: "hello" });
    await api.waitForRun(writing.id, ["awaiting_input"]);

    const { status, type, text } = await scrape();
    expect(status).toBe(200);
    expect(type).toMatch(/^text\/plain; version=0\.0\.4/);
    const grew = (name: string, labels: Record<string, string>) => (sample(text, name, labels) ?? 0) - (sample(before, name, labels) ?? 0);
    expect(grew("studio_runs_started_total", { trigger: "person" })).toBe(2);
    expect(grew("studio_runs_finished_total", { status: "succeeded" })).toBe(1);
    expect(grew("studio_step_duration_seconds_count", { kind: "tool", tool: "list_dir", status: "succeeded" })).toBe(1);
    expect(grew("studio_approvals_requested_total", {})).toBe(1);
    expect(sample(text, "studio_approvals_waiting")).toBeGreaterThanOrEqual(1);
    expect(sample(text, "studio_approval_oldest_waiting_seconds")).toBeGreaterThan(0);
    expect(sample(text, "studio_runs_unfinished", { status: "awaiting_input" })).toBeGreaterThanOrEqual(1);
    expect(sample(text, "studio_process_resident_memory_bytes")).toBeGreaterThan(0);

    const [approval] = (await api.expect(200, "GET", `/api/runs/${writing.id}`)).run.approvals;
    await api.expect(200, "POST", `/api/approvals/${approval.id}`, { decision: "deny" });
    await api.waitForRun(writing.id);
    const after = (await scrape("/api/metrics")).text;
    expect((sample(after, "studio_approvals_decided_total", { status: "denied" }) ?? 0) - (sample(text, "studio_approvals_decided_total", { status: "denied" }) ?? 0)).toBe(1);
    expect(sample(after, "studio_step_duration_seconds_count", { kind: "tool", tool: "write_file", status: "failed" })).toBeGreaterThanOrEqual(1);
  });

  it("count webhook deliveries by address and the status answered", async () => {
    const api = server.client();
    const hookId = `metrics${randomBytes(6).toString("hex")}`;
    const { id } = await api.createWorkflow({
      name: "Metrics: webhook",
      nodes: [
        { id: "in", kind: "input", fields: [{ name: "name", type: "string", required: true }] },
        { id: "hook", kind: "webhook", hookId, authentication: "none", mapping: [{ input: "name", from: "body.name" }] },
        { id: "out", kind: "output", value: "Hi {{ inputs.name }}" },
      ],
      edges: [...chain("hook", "out"), { id: "in-out", source: "in", target: "out" }],
    });
    await api.expect(200, "POST", `/api/workflows/${id}/publish`, {});
    const before = (await scrape()).text;
    const delivered = await rawRequest(`${server.url}/hooks/${hookId}`, { method: "POST", body: { name: "Ada" } });
    const refused = await rawRequest(`${server.url}/hooks/${hookId}`, { method: "POST", body: { nobody: true } });
    const unknown = await rawRequest(`${server.url}/hooks/no-such-hook-${hookId}`, { method: "POST", body: {} });
    expect([delivered.status, unknown.status]).toEqual([expect.any(Number), 404]);
    expect(refused.status).toBeGreaterThanOrEqual(400);
    const after = (await scrape()).text;
    const grew = (status: number) =>
      (sample(after, "studio_webhook_deliveries_total", { address: "live", status: String(status) }) ?? 0) -
      (sample(before, "studio_webhook_deliveries_total", { address: "live", status: String(status) }) ?? 0);
    const statuses = [delivered.status, refused.status, unknown.status];
    for (const status of new Set(statuses)) expect(grew(status)).toBe(statuses.filter((each) => each === status).length);
  });

  it("say, scaled out on PostgreSQL, how many runs wait in the queue and how many slots drive one", async () => {
    const api = server.client();
    const root = workFolder("studio-metrics-queue-");
    const { id } = await api.createWorkflow({
      name: "Metrics: held",
      ...BYPASS,
      nodes: [{ id: "in", kind: "input", fields: [] }, shellNode("hold", root, "while [ ! -f release ]; do sleep 0.05; done")],
      edges: chain("in", "hold"),
    });
    if (server.provider !== "postgresql") {
      // One process and no queue: the queue's gauges are not there rather than a made-up zero.
      expect(sample((await scrape()).text, "studio_run_jobs_waiting")).toBeNull();
      return;
    }
    const runs = [await api.startRun(id), await api.startRun(id)];
    const counts = async () => {
      const text = (await scrape()).text;
      return { waiting: sample(text, "studio_run_jobs_waiting"), active: sample(text, "studio_run_jobs_active") };
    };
    await waitFor(async () => {
      const now = await counts();
      return now.waiting === 1 && now.active === 1 ? now : undefined;
    }, { what: "one run held by the only slot, the other waiting for it" });
    writeFileSync(path.join(root, "release"), "");
    for (const run of runs) await api.waitForRun(run.id);
    expect(await counts()).toEqual({ waiting: 0, active: 0 });
  });

  it("are a scraper's with a token holding metrics:read alone; without it a 403 names the scope, without a credential a 401", async () => {
    const api = server.client();
    const { token } = await api.expect(201, "POST", "/api/me/tokens", { name: "prometheus", scopes: ["metrics:read"] });
    const scraped = await scrape("/metrics", { Authorization: `Bearer ${token}` });
    expect(scraped.status).toBe(200);
    expect(sample(scraped.text, "studio_approvals_waiting")).not.toBeNull();
    // The scraper's token reads nothing else.
    expect((await fetch(`${server.url}/api/runs`, { headers: { Authorization: `Bearer ${token}` } })).status).toBe(403);

    const { token: other } = await api.expect(201, "POST", "/api/me/tokens", { name: "reader", scopes: ["run:read"] });
    const refused = await scrape("/metrics", { Authorization: `Bearer ${other}` });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain("metrics:read");
    const anonymous = await fetch(`${server.url}/metrics`, { redirect: "manual" });
    expect(anonymous.status).toBe(401);
  });
});
