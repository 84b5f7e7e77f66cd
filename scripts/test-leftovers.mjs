#!/usr/bin/env node
// What a test run leaves behind, found and removed by name, never by guess.
//
// Every test run has an id (STUDIO_TEST_RUN_ID: scripts/test.sh makes one for
// the whole of `npm test`; vitest's global setup makes one when it runs
// alone). What the tests start is named after it:
//   - processes (studio servers, workers, throwaway PostgreSQL clusters) carry
//     STUDIO_TEST_SERVER=<run id> in their environment, which their children
//     inherit;
//   - PostgreSQL databases are named studio_test_<run id>_...;
//   - temporary folders are named studio-<kind>-<run id>-... in the temp dir.
// So whatever a crashed worker, a timed-out start or a forgotten stop() left,
// this finds it from the outside, on any run, even one that was killed.
//
// Used by vitest's global setup (reap at its end), by scripts/test.sh (reap on
// any exit; `check` as the run's last step) and by hand:
//   node scripts/test-leftovers.mjs reap  <run id>   # remove, say what was removed
//   node scripts/test-leftovers.mjs check <run id>   # exit 1 if anything is left,
//                                                    # or if reaping had to remove something
import { appendFileSync, existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";

/** The environment variable that marks a process as started by test run <id>. */
export const SERVER_MARKER = "STUDIO_TEST_SERVER";

/** A run id: short, lowercase, safe in a database name, a folder name and an environment value. */
export const RUN_ID_PATTERN = /^[a-z0-9]{4,16}$/;

export function newRunId() {
  return `${Date.now().toString(36).slice(-5)}${Math.random().toString(36).slice(2, 7)}`;
}

function assertRunId(runId) {
  if (!RUN_ID_PATTERN.test(runId ?? "")) throw new Error(`Not a test run id: ${JSON.stringify(runId)} (expected ${RUN_ID_PATTERN}).`);
}

/** The prefix of every database the run makes (tests and servers alike). */
export const databasePrefix = (runId) => `studio_test_${runId}_`;

/** The prefix of a temporary folder of `kind` the run makes, e.g. studio-api-data-<id>-. */
export const folderPrefix = (kind, runId) => `studio-${kind}-${runId}-`;

/** Where the run notes what its reaping had to remove (read by `check`). */
const reapedLog = (runId) => path.join(os.tmpdir(), `studio-test-run-${runId}.reaped`);

const adminUrl = () => process.env.TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/test";

/** Processes whose environment carries the run's marker: [{ pid, pgid, command }]. */
export function markedProcesses(runId) {
  assertRunId(runId);
  return processesWithEnvironment(SERVER_MARKER, runId);
}

/** Live processes whose environment holds `name=value`: [{ pid, pgid, command }]. Linux (/proc) only. */
export function processesWithEnvironment(name, value) {
  if (!existsSync("/proc")) return [];
  const needle = Buffer.from(`${name}=${value}\0`);
  const found = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid === process.pid) continue;
    let environment;
    try {
      environment = readFileSync(`/proc/${pid}/environ`);
    } catch {
      continue; // gone meanwhile, or not ours to read
    }
    const at = environment.indexOf(needle);
    if (at === -1 || (at > 0 && environment[at - 1] !== 0)) continue;
    let pgid = pid;
    let command = "";
    try {
      // The command name sits in parentheses and may hold spaces: the fields after the last ")" are fixed.
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (fields[0] === "Z") continue; // a zombie is already dead; its parent reaps it
      pgid = Number(fields[2]);
      command = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ").trim();
    } catch {
      continue;
    }
    found.push({ pid, pgid, command });
  }
  return found;
}

/** The run's databases on the test PostgreSQL server; [] when no server answers. */
export async function runDatabases(runId) {
  assertRunId(runId);
  const client = new pg.Client({ connectionString: adminUrl(), connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
  } catch {
    return [];
  }
  try {
    const { rows } = await client.query("SELECT datname FROM pg_database WHERE starts_with(datname, $1) ORDER BY datname", [databasePrefix(runId)]);
    return rows.map((row) => row.datname);
  } finally {
    await client.end();
  }
}

/** The run's temporary folders. */
export function runFolders(runId) {
  assertRunId(runId);
  const marker = `-${runId}-`;
  return readdirSync(os.tmpdir())
    .filter((name) => name.startsWith("studio-") && name.includes(marker))
    .map((name) => path.join(os.tmpdir(), name));
}

export async function findLeftovers(runId) {
  return { processes: markedProcesses(runId), databases: await runDatabases(runId), folders: runFolders(runId) };
}

const isEmpty = (leftovers) => leftovers.processes.length + leftovers.databases.length + leftovers.folders.length === 0;

export function describeLeftovers(leftovers) {
  return [
    ...leftovers.processes.map((process) => `process ${process.pid}: ${process.command.slice(0, 160)}`),
    ...leftovers.databases.map((name) => `database ${name}`),
    ...leftovers.folders.map((folder) => `folder ${folder}`),
  ];
}

/** Waits until none of `pids` runs (SIGKILL is asynchronous), at most `timeoutMs`. */
async function waitGone(pids, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const running = pids.filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
        return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
      } catch {
        return false;
      }
    });
    if (running.length === 0 || Date.now() > deadline) return running;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Removes everything the run left: kills its processes (each one's whole
 * process group, then the process itself), drops its databases, removes its
 * folders. Returns what it found; notes it for `check` when anything was there.
 */
export async function reapLeftovers(runId) {
  const leftovers = await findLeftovers(runId);
  if (isEmpty(leftovers)) return leftovers;
  for (const { pid, pgid } of leftovers.processes) {
    for (const target of pgid > 1 && pgid !== process.pid ? [-pgid, pid] : [pid]) {
      try {
        process.kill(target, "SIGKILL");
      } catch {
        // already gone
      }
    }
  }
  await waitGone(
    leftovers.processes.map((entry) => entry.pid),
    10_000,
  );
  if (leftovers.databases.length > 0) {
    const client = new pg.Client({ connectionString: adminUrl(), connectionTimeoutMillis: 5_000 });
    await client.connect();
    try {
      for (const name of leftovers.databases) await client.query(`DROP DATABASE IF EXISTS "${name.replaceAll('"', '""')}" WITH (FORCE)`);
    } finally {
      await client.end();
    }
  }
  for (const folder of leftovers.folders) rmSync(folder, { recursive: true, force: true });
  appendFileSync(reapedLog(runId), describeLeftovers(leftovers).map((line) => `${line}\n`).join(""));
  return leftovers;
}

/** What reaping had to remove during the run (lines), and forgets it. */
export function takeReapedNotes(runId) {
  const file = reapedLog(runId);
  if (!existsSync(file)) return [];
  const lines = readFileSync(file, "utf8").split("\n").filter(Boolean);
  rmSync(file, { force: true });
  return lines;
}

async function main([command, runId]) {
  assertRunId(runId);
  if (command === "reap") {
    const leftovers = await reapLeftovers(runId);
    const lines = describeLeftovers(leftovers);
    if (lines.length > 0) console.error(`[test run ${runId}] removed what the tests left:\n  ${lines.join("\n  ")}`);
    return 0;
  }
  if (command === "check") {
    const left = describeLeftovers(await findLeftovers(runId));
    const reaped = takeReapedNotes(runId);
    if (left.length === 0 && reaped.length === 0) {
      console.log(`[test run ${runId}] nothing left behind: no test server, worker or database process, no test database, no test folder.`);
      return 0;
    }
    if (reaped.length > 0) console.error(`[test run ${runId}] the tests did not stop what they started; reaping had to remove:\n  ${reaped.join("\n  ")}`);
    if (left.length > 0) console.error(`[test run ${runId}] still there at the end:\n  ${left.join("\n  ")}`);
    return 1;
  }
  console.error("usage: node scripts/test-leftovers.mjs reap|check <run id>");
  return 2;
}

// Run as a command, not imported. (No import.meta here: Playwright's config loader compiles this file to CommonJS.)
if (path.basename(process.argv[1] ?? "") === "test-leftovers.mjs") {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(2);
    },
  );
}
