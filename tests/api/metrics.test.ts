import { afterAll, describe, expect, it } from "vitest";
import { credentialHeaders } from "./credential";
import { chain, removeWorkFolders, workFolder, writeFileWorkflow } from "./fixtures";
import { setupStudioServer } from "./studio-server";

/**
 * GET /metrics (and /api/metrics) over HTTP, in Prometheus' text format: runs, steps and approvals counted from the
 * run events, the approvals waiting now read from the database, and the process's own figures; a scraper's token needs
 * `metrics:read` and nothing more.
 */

const server = setupStudioServer();

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
