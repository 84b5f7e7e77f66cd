import { spawn } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { processesWithMarker, uniqueSleep, waitFor } from "../../testing/processes";
import { detectContainment } from "./containment";
import { ShellProcess, type ShellOptions } from "./shell-process";

// Real processes on a possibly loaded 2-core machine: every wait is for a condition, with room to spare.
const GONE_WITHIN_MS = 30_000;

let folder: string;
beforeAll(() => {
  folder = realpathSync(mkdtempSync(path.join(tmpdir(), "shell-process-")));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function start(command: string, options: Partial<ShellOptions> = {}): ShellProcess {
  return ShellProcess.start({ command, cwd: folder, env: { PATH: process.env.PATH ?? "/usr/bin:/bin" }, timeoutMs: 120_000, ...options });
}

/**
 * A command that leaves two processes that escape its process group: one
 * started with setsid and disowned, one double-forked into a new session.
 * Both are up before it prints "ready".
 */
function daemonising(marker: string): string {
  return [
    `setsid bash -c '${marker}' & disown`,
    `( setsid bash -c '${marker} & disown' & ) `,
    // Wait until both sleeps exist, as the kernel sees them, before saying so.
    `until [ "$(pgrep -fc -- '^${marker}$')" -ge 2 ]; do sleep 0.05; done`,
    "echo ready",
  ].join("\n");
}

async function untilReady(shell: ShellProcess): Promise<void> {
  await waitFor(() => shell.stdout.text().includes("ready") || !shell.running, GONE_WITHIN_MS, "the command saying ready");
  expect(shell.stdout.text()).toContain("ready");
}

describe("ShellProcess: commands die with the studio", { timeout: 120_000 }, () => {
  it("puts commands in a PID namespace tied to the studio on this machine", () => {
    // Debian with util-linux, as root or with user namespaces allowed: the fallback would hide the guarantee.
    expect(detectContainment().mode).not.toBe("process-group");
    expect(detectContainment()).toBe(detectContainment());
  });

  it("keeps exit codes, signals and output as they were", async () => {
    const exited = await start("echo out; echo err >&2; exit 3").done;
    expect(exited).toMatchObject({ ending: "exited", exitCode: 3, signal: null });
    const shell = start("printf 'one\\ntwo\\n'; echo three >&2");
    await shell.done;
    expect(shell.stdout.text()).toBe("one\ntwo\n");
    expect(shell.stderr.text()).toBe("three\n");
    // A program the shell runs that dies of a signal is reported by bash as 128 + the signal, as before.
    const crashed = start("bash -c 'kill -SEGV $$'; echo \"child ended with $?\"");
    expect((await crashed.done).exitCode).toBe(0);
    expect(crashed.stdout.text()).toBe("child ended with 139\n");
  });

  it("stops daemonised processes when a command times out", async () => {
    const marker = uniqueSleep();
    const shell = start(`${daemonising(marker)}\nsleep 300`, { timeoutMs: 60_000 });
    await untilReady(shell);
    expect(processesWithMarker(marker).length).toBeGreaterThanOrEqual(2);
    shell.stop("timed_out");
    expect((await shell.done).ending).toBe("timed_out");
    await waitFor(() => processesWithMarker(marker).length === 0, GONE_WITHIN_MS, "the daemonised sleeps gone");
  });

  it("stops daemonised processes when a command is cancelled", async () => {
    const marker = uniqueSleep();
    const controller = new AbortController();
    const shell = start(`${daemonising(marker)}\nsleep 300`, { signal: controller.signal });
    await untilReady(shell);
    controller.abort();
    expect((await shell.done).ending).toBe("cancelled");
    await waitFor(() => processesWithMarker(marker).length === 0, GONE_WITHIN_MS, "the daemonised sleeps gone");
  });

  it("stops daemonised processes when a command ends on its own", async () => {
    const marker = uniqueSleep();
    const outcome = await start(`${daemonising(marker)}\nexit 4`).done;
    expect(outcome).toMatchObject({ ending: "exited", exitCode: 4 });
    await waitFor(() => processesWithMarker(marker).length === 0, GONE_WITHIN_MS, "the daemonised sleeps gone");
  });

  it("stops daemonised processes of a background job when it is killed", async () => {
    const marker = uniqueSleep();
    // A background job is a ShellProcess without a cancel signal, stopped by the job table with "killed".
    const job = start(`${daemonising(marker)}\nsleep 300`);
    await untilReady(job);
    expect(job.running).toBe(true);
    job.stop("killed");
    expect((await job.done).ending).toBe("killed");
    await waitFor(() => processesWithMarker(marker).length === 0, GONE_WITHIN_MS, "the daemonised sleeps gone");
  });

  it("takes every process a command started with it when the studio is SIGKILLed", async () => {
    const marker = uniqueSleep();
    const host = spawn(process.execPath, ["--import", "tsx", path.join(import.meta.dirname, "shell-process-host.fixture.ts"), `${daemonising(marker)}\nsleep 300`], {
      // The project's folder, where `--import tsx` resolves; the command itself only runs sleeps.
      cwd: path.resolve(import.meta.dirname, "../../../.."),
      stdio: ["ignore", "pipe", "inherit"],
    });
    let said = "";
    host.stdout.setEncoding("utf8");
    host.stdout.on("data", (text: string) => (said += text));
    const exited = new Promise((resolve) => host.once("exit", resolve));
    await waitFor(() => said.includes("started") || host.exitCode !== null, 60_000, "the host starting its command");
    expect(said).toContain("started");
    expect(processesWithMarker(marker).length).toBeGreaterThanOrEqual(2);

    host.kill("SIGKILL");
    await exited;
    await waitFor(() => processesWithMarker(marker).length === 0, GONE_WITHIN_MS, "the daemonised sleeps gone after the host's SIGKILL");
  });
});
