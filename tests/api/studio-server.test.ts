import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { processesWithEnvironment } from "../../scripts/test-leftovers.mjs";
import { startStudioServer } from "./studio-server";

/**
 * The harness owns what it starts: a start that fails or times out leaves no
 * process, no data folder and no database behind, and says what the server
 * printed. (A busy machine once made every API file's start time out, and each
 * left its server running: 50 of them slowed every later start.)
 */

/** A value only this test's server carries in its environment, to find its processes among every other file's. */
const probe = () => ({ STUDIO_TEST_PROBE: randomBytes(8).toString("hex") });

/** The data folder and database the failure message says were removed. */
function removedPlaces(message: string): { dataDir: string; databaseUrl: string | null } {
  const dataDir = /its data folder (\S+)/.exec(message)?.[1];
  if (!dataDir) throw new Error(`The failure does not name the data folder it removed:\n${message}`);
  return { dataDir, databaseUrl: /its database (\S+?)(?: removed|\))/.exec(message)?.[1] ?? null };
}

async function databaseExists(url: string): Promise<boolean> {
  const name = new URL(url).pathname.slice(1);
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    return ((await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name])).rowCount ?? 0) > 0;
  } finally {
    await client.end();
  }
}

async function expectNothingLeft(message: string, marker: Record<string, string>) {
  const [name, value] = Object.entries(marker)[0]!;
  expect(processesWithEnvironment(name, value)).toEqual([]);
  const { dataDir, databaseUrl } = removedPlaces(message);
  expect(existsSync(dataDir)).toBe(false);
  if (databaseUrl) expect(await databaseExists(databaseUrl)).toBe(false);
}

describe("the test harness's server start", () => {
  it("a start that times out kills the server's whole process group, removes its folder and database, and says what it printed", async () => {
    const marker = probe();
    // 1 ms: the server cannot answer in time, though it was spawned and may be half way through its boot.
    const failure = await startStudioServer({ env: marker, startTimeoutMs: 1 }).then(
      () => null,
      (error: Error) => error,
    );
    expect(failure?.message).toMatch(/did not answer within 1 ms/);
    expect(failure?.message).toMatch(/What it printed:/);
    await expectNothingLeft(failure!.message, marker);
  }, 180_000);

  it("a server that exits before answering is reported with its own words, and leaves nothing", async () => {
    const marker = probe();
    // The studio refuses to listen beyond loopback without a password, and exits.
    const failure = await startStudioServer({ env: { ...marker, HOST: "0.0.0.0", STUDIO_PASSWORD: "" } }).then(
      () => null,
      (error: Error) => error,
    );
    expect(failure?.message).toMatch(/exited \(code 1\) before answering/);
    expect(failure?.message).toMatch(/HOST=0\.0\.0\.0 lets other machines reach the studio/);
    await expectNothingLeft(failure!.message, marker);
  }, 180_000);

  it("stop() ends the process group, and removes the data folder and database it made (an empty one it migrated at its start)", async () => {
    const marker = probe();
    const server = await startStudioServer({ env: marker, emptyDatabase: true });
    const [name, value] = Object.entries(marker)[0]!;
    expect(processesWithEnvironment(name, value).map((process) => process.pid)).toContain(server.pid);
    await server.stop();
    expect(processesWithEnvironment(name, value)).toEqual([]);
    expect(existsSync(server.dataDir)).toBe(false);
    if (server.provider === "postgresql") expect(await databaseExists(server.databaseUrl)).toBe(false);
  }, 180_000);
});
