import { execFileSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, readdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { freePort } from "../api/studio-server";
import { testRunFolder, testRunMarker } from "./test-run";

/**
 * A PostgreSQL cluster of its own under a temporary folder, on a free port of
 * 127.0.0.1 with trust authentication, for a test that stops and starts the
 * database under load (the shared server on 5432 must not be restarted).
 * Debian's binaries (/usr/lib/postgresql/<version>/bin); run as the postgres
 * system user when the tests run as root, since PostgreSQL refuses root.
 */
export interface ThrowawayPostgres {
  /** `postgresql://postgres@127.0.0.1:<port>/postgres`. */
  readonly url: string;
  /** A URL for database `name` on this cluster. */
  urlOf(name: string): string;
  stop(): void;
  start(): void;
  /** Stops it for good and removes its folder. */
  destroy(): void;
}

function binaries(): string {
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root) ? readdirSync(root).filter((name) => existsSync(path.join(root, name, "bin", "pg_ctl"))) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (!newest) throw new Error("No PostgreSQL binaries under /usr/lib/postgresql: scripts/ensure-services.sh installs them.");
  return path.join(root, newest, "bin");
}

export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const bin = binaries();
  const folder = testRunFolder("pg");
  const data = path.join(folder, "data");
  const port = await freePort();
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { uid, gid } = statSync("/var/lib/postgresql");
    chownSync(folder, uid, gid);
  }
  chmodSync(folder, 0o700);
  const run = (command: string, args: string[]) =>
    execFileSync(asRoot ? "runuser" : path.join(bin, command), asRoot ? ["-u", "postgres", "--", path.join(bin, command), ...args] : args, {
      stdio: "pipe",
      cwd: folder,
      // The cluster's processes carry the run's marker: a test that never reached destroy() leaves nothing running.
      env: { ...process.env, ...testRunMarker() },
    });
  run("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8"]);
  const options = `-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories=${folder} -c fsync=off -c max_connections=200`;
  const start = () => run("pg_ctl", ["-D", data, "-l", path.join(folder, "log"), "-o", options, "-w", "start"]);
  const stop = () => run("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"]);
  start();
  const urlOf = (name: string) => `postgresql://postgres@127.0.0.1:${port}/${name}`;
  return {
    url: urlOf("postgres"),
    urlOf,
    start,
    stop,
    destroy: () => {
      try {
        stop();
      } catch {
        // Already stopped.
      }
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
