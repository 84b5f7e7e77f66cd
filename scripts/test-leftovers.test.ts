import { spawn } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { isAlive } from "@/lib/tools/testing/processes";
import { databasePrefix, findLeftovers, folderPrefix, newRunId, reapLeftovers, RUN_ID_PATTERN, SERVER_MARKER, takeReapedNotes } from "./test-leftovers.mjs";

/**
 * The reaper that ends every test run clean: given a run id, it finds the
 * run's processes (by the marker in their environment, children included),
 * databases and folders (by name) and removes them. A run of its own here, so
 * nothing of the real run is touched.
 */

const adminUrl = () => process.env.TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/test";

async function admin<T>(action: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    return await action(client);
  } finally {
    await client.end();
  }
}

let runId = "";
afterEach(async () => {
  if (runId) await reapLeftovers(runId);
  takeReapedNotes(runId);
});

describe("scripts/test-leftovers.mjs", () => {
  it("makes run ids fit for a database name, a folder name and an environment value", () => {
    const ids = new Set(Array.from({ length: 50 }, () => newRunId()));
    expect(ids.size).toBe(50);
    for (const id of ids) expect(id).toMatch(RUN_ID_PATTERN);
  });

  it("finds and removes a run's process tree, database and folder, notes what it removed, and touches nothing else", async () => {
    runId = newRunId();
    const otherRun = newRunId();
    // A marked shell whose child (a sleep) inherits the marker, as a studio server's children do.
    const marked = spawn("/bin/sh", ["-c", "sleep 300 & wait"], { env: { ...process.env, [SERVER_MARKER]: runId }, stdio: "ignore", detached: true });
    const unmarked = spawn("/bin/sh", ["-c", "sleep 300 & wait"], { env: { ...process.env, [SERVER_MARKER]: otherRun }, stdio: "ignore", detached: true });
    const folder = mkdtempSync(path.join(os.tmpdir(), folderPrefix("api-data", runId)));
    const database = `${databasePrefix(runId)}probe`;
    await admin((client) => client.query(`CREATE DATABASE "${database}"`));
    try {
      // The shell has started its sleep once two marked processes are seen.
      const deadline = Date.now() + 30_000;
      let found = await findLeftovers(runId);
      while (found.processes.length < 2 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        found = await findLeftovers(runId);
      }
      expect(found.processes.map((process) => process.pid)).toContain(marked.pid);
      expect(found.processes).toHaveLength(2);
      expect(found.databases).toEqual([database]);
      expect(found.folders).toEqual([folder]);

      await reapLeftovers(runId);

      expect(await findLeftovers(runId)).toEqual({ processes: [], databases: [], folders: [] });
      expect(isAlive(marked.pid!)).toBe(false);
      expect(existsSync(folder)).toBe(false);
      expect(isAlive(unmarked.pid!)).toBe(true);
      const notes = takeReapedNotes(runId);
      expect(notes.filter((line) => line.startsWith("process "))).toHaveLength(2);
      expect(notes).toContain(`database ${database}`);
      expect(notes).toContain(`folder ${folder}`);
      expect(takeReapedNotes(runId)).toEqual([]);
    } finally {
      process.kill(-unmarked.pid!, "SIGKILL");
      await admin((client) => client.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`));
    }
  });
});
