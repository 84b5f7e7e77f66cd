import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_STORED_RESULT_BYTES } from "@/lib/workflow/bound-output";
import { ApiClient } from "./api-client";
import { BYPASS, removeWorkFolders, workFolder } from "./fixtures";
import { setupStudioServer } from "./studio-server";

// Issue 32: a query of wide rows stored its whole result in the step; the run's page then asked the server for
// all of it at once (95.5 MB with 50 columns; the server reached 3.6 GB and the page never loaded).

const server = setupStudioServer();
let api: ApiClient;
let databaseFile: string;

beforeAll(() => {
  api = server.client();
  databaseFile = path.join(workFolder(), "wide.db");
  const wide = new Database(databaseFile);
  wide.exec("CREATE TABLE t (id INTEGER PRIMARY KEY); WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 1000) INSERT INTO t SELECT x FROM n;");
  wide.close();
});

afterAll(() => {
  removeWorkFolders();
});

describe("a step's stored result over HTTP", () => {
  it("answers a run with a wide query's result within the cap, the notice beside it, and samples only the stored rows", async () => {
    await api.expect(201, "POST", "/api/secrets", { name: "WIDE_DB", value: `sqlite://${databaseFile}`, tool: "sql" });
    const columns = [1, 2, 3, 4, 5].map((column) => `hex(zeroblob(1000)) AS c${column}`).join(", ");
    const { id } = await api.createWorkflow({
      name: "Wide query",
      ...BYPASS,
      nodes: [
        { id: "in", kind: "input", fields: [] },
        { id: "db", kind: "tool", tool: "sql", operation: "query", arguments: { dsn: "${WIDE_DB}", sql: `SELECT id, ${columns} FROM t ORDER BY id`, limit: 1000 } },
      ],
      edges: [{ id: "a", source: "in", target: "db" }],
    });
    const started = await api.startRun(id);
    const finished = await api.waitForRun(started.id);
    expect(finished.status, finished.error ?? "").toBe("succeeded");

    const answer = await api.get(`/api/runs/${started.id}`);
    expect(answer.status).toBe(200);
    // The run's answer is the stored step and a little around it, whatever the query returned (about 20 MB).
    expect(Buffer.byteLength(answer.text, "utf8")).toBeLessThan(MAX_STORED_RESULT_BYTES + 100_000);
    const step = answer.body.run.steps.find((each: { nodeId: string }) => each.nodeId === "db");
    const rows = step.output.data.rows as { id: number }[];
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThan(1000);
    expect(step.output.truncated.totalBytes).toBeGreaterThan(20_000_000);
    expect(step.output.truncated.notice).toContain(`data.rows: the first ${rows.length.toLocaleString("en-US")} of 1,000 items`);

    // The stream the run page follows carries the same stored part, notice included.
    const events = await api.events(started.id);
    const succeeded = events.find((event) => event.type === "node-succeeded" && event.nodeId === "db");
    expect((succeeded?.payload as { output: unknown }).output).toEqual(step.output);

    // The editor's field picker maps from the stored rows: none past them.
    const { samples } = await api.expect(200, "GET", `/api/workflows/${id}/samples?nodeIds=db`);
    expect(samples.nodes[0].data.rows.map((row: { id: number }) => row.id)).toEqual(rows.map((row) => row.id));
  });
});
