// The studio's side of bench/webhooks-side-by-side.sh: the built studio (`node scripts/serve.mjs`, embedded
// SQLite, every run and event persisted) with the two workflows n8n's anchor runs, as webhooks that answer when
// the run has finished: Webhook → Output (the request's body back, as n8n's "Respond to Webhook" with the first
// incoming item does), and Webhook → 10 list_dir steps → Output. Both published, authentication "none" like the
// anchor's. Prints `URL minimal <url>` and `URL ten_set <url>`, then serves until SIGTERM or stdin closes; at the
// end it prints how many runs the database holds by workflow and status (`PERSISTED ...`), so the caller can
// check that every answered request is a stored, finished run.
//
// Usage: npx tsx bench/webhook-studio.ts   (after `npx next build`; BENCH_NODE_ARGS="--cpu-prof ..." profiles it)
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { startWeb } from "./studio-process";

/** A hook id per workflow: the URL's stable part (16+ characters). */
const HOOK_IDS = { minimal: "benchminimal000000001", ten_set: "benchtenset0000000001" } as const;

function webhookWorkflow(name: string, hookId: string, steps: number, root: string) {
  const tools = Array.from({ length: steps }, (_, index) => ({ id: `list${index}`, kind: "tool", tool: "list_dir", settings: { root }, arguments: { path: "." } }));
  const chain = ["hook", ...tools.map((tool) => tool.id), "out"];
  return {
    name,
    nodes: [
      { id: "hook", kind: "webhook", hookId, authentication: "none", ratePerMinute: 0, respond: "when-finished" },
      ...tools,
      { id: "out", kind: "output", value: "{{ nodes.hook.data.body }}" },
    ],
    edges: chain.slice(1).map((target, index) => ({ id: `e${index}`, source: chain[index]!, target })),
  };
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "studio-webhook-bench-"));
  const root = mkdtempSync(path.join(os.tmpdir(), "studio-webhook-bench-root-"));
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean);
  const web = await startWeb({ env: { STUDIO_DATA_DIR: dataDir }, nodeArgs });
  const ids: Record<string, string> = {};
  for (const [name, steps] of [["minimal", 0], ["ten_set", 10]] as const) {
    const id = await web.client.createWorkflow(webhookWorkflow(`bench ${name}`, HOOK_IDS[name], steps, root));
    await web.client.expect(200, "POST", `/api/workflows/${id}/publish`, {});
    ids[name] = id;
    console.log(`URL ${name} http://127.0.0.1:${web.client.port}/hooks/${HOOK_IDS[name]}`);
  }
  console.log(`PID ${web.pid}`);

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await web.stop(30_000);
    const database = new Database(path.join(dataDir, "studio.db"), { readonly: true });
    for (const [name, id] of Object.entries(ids)) {
      const rows = database.prepare(`SELECT "status", COUNT(*) AS "count" FROM "Run" WHERE "workflowId" = ? GROUP BY "status"`).all(id) as { status: string; count: number }[];
      const events = database.prepare(`SELECT COUNT(*) AS "count" FROM "RunEvent" e JOIN "Run" r ON r."id" = e."runId" WHERE r."workflowId" = ?`).get(id) as { count: number };
      console.log(`PERSISTED ${name} ${rows.map((row) => `${row.status}=${row.count}`).join(" ")} events=${events.count}`);
    }
    database.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(root, { recursive: true, force: true });
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop());
  process.on("SIGINT", () => void stop());
  process.stdin.on("end", () => void stop()).resume();
}

void main();
