import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { ApprovalDetailSchema } from "@/lib/contracts/approval";
import { ToolListSchema } from "@/lib/contracts/catalog";
import { DirectoryListingSchema } from "@/lib/contracts/directory-listing";
import { McpServerViewSchema } from "@/lib/contracts/mcp-server";
import { RunDetailSchema, RunSummarySchema } from "@/lib/contracts/run";
import { conform, type ApiClient } from "./api-client";
import { removeWorkFolders, workFolder, writeFileWorkflow } from "./fixtures";
import { everyRoute, plausibleBody } from "./routes";
import { setupStudioServer } from "./studio-server";

/**
 * The API answers as lib/contracts says, checked over HTTP against the real
 * server: what the pages and scripts parse is what the routes send. (Every
 * API test also checks run details, pending approvals, streamed events and
 * error bodies through the shared client; this file covers the rest.)
 */

const server = setupStudioServer();
let api: ApiClient;

beforeAll(() => {
  api = server.client();
});

afterAll(() => {
  removeWorkFolders();
});

describe("the API's answers follow lib/contracts", () => {
  it("every route's refusal of a bogus request carries the one error body (checked by the client on every 4xx and 5xx)", async () => {
    const statuses: number[] = [];
    for (const [method, url] of everyRoute()) {
      if (url === "/api/events" || url.endsWith("/events") || url === "/api/mcp") continue; // streams and JSON-RPC answer in their own formats
      const response = await api.request(method, url.replaceAll("/x", "/does-not-exist"), plausibleBody(method));
      statuses.push(response.status);
    }
    // Not only successes: the refusals were there to check.
    expect(statuses.filter((status) => status >= 400).length).toBeGreaterThan(10);
  });

  it("a run, its list entry and its decided approval", async () => {
    const { id } = await api.createWorkflow(writeFileWorkflow(workFolder()));
    const run = await api.startRun(id, { text: "contract" });
    const approval = await api.waitForApproval(run.id);
    const decided = await api.expect(200, "POST", `/api/approvals/${approval.id}`, { decision: "once", digest: approval.digest });
    conform(ApprovalDetailSchema, decided.approval, "POST /api/approvals/{id}");
    const finished = await api.waitForRun(run.id);
    expect(finished.status).toBe("succeeded");
    conform(RunDetailSchema, finished, "GET /api/runs/{id}");
    const { runs } = await api.expect(200, "GET", `/api/runs?workflowId=${id}`);
    conform(z.array(RunSummarySchema), runs, "GET /api/runs");
    expect(runs).toHaveLength(1);
    const { approvals } = await api.expect(200, "GET", `/api/approvals?runId=${run.id}`);
    conform(z.array(ApprovalDetailSchema), approvals, "GET /api/approvals");
    // Every event of the run, read through the contract by the shared client.
    const types = (await api.events(run.id)).map((event) => event.type);
    expect(types).toEqual(expect.arrayContaining(["run-started", "approval-requested", "approval-decided", "run-succeeded"]));
  });

  it("the catalog, a folder listing and the MCP servers", async () => {
    const catalog = await api.expect(200, "GET", "/api/tools");
    conform(ToolListSchema, catalog, "GET /api/tools");
    expect(catalog.tools.map((tool: { name: string }) => tool.name)).toContain("write_file");

    const folder = workFolder();
    const listing = await api.get(`/api/fs/directories?path=${encodeURIComponent(folder)}`);
    // A folder outside the browse roots is refused with the error body (already checked); inside, it lists.
    if (listing.status === 200) conform(DirectoryListingSchema, listing.body, "GET /api/fs/directories");
    else expect(listing.status).toBe(403);
    const home = await api.expect(200, "GET", "/api/fs/directories");
    conform(DirectoryListingSchema, home, "GET /api/fs/directories");

    const created = await api.post("/api/mcp-servers", { name: "nowhere", transport: "http", url: "http://127.0.0.1:9/mcp" });
    expect(created.status, created.text).toBe(201);
    conform(McpServerViewSchema, created.body.server, "POST /api/mcp-servers");
    const { servers } = await api.expect(200, "GET", "/api/mcp-servers");
    conform(z.array(McpServerViewSchema), servers, "GET /api/mcp-servers");
  });
});
