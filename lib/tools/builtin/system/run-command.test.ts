import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { IOHandler } from "../../io-handler";
import type { Guardrails } from "../../permissions/guardrails";
import { defaultGuardrails } from "../../permissions/guardrails";
import { createToolContext, type ToolContext, type ToolEvent } from "../../tool-context";
import type { ToolResult } from "../../tool-result";
import { systemTools } from "./index";
import type { Tool } from "../../tool";
import { jobTable } from "./job-table";
import { RunCommandTool } from "./run-command";
import { RecordingIOHandler } from "../../testing/recording-io-handler";
import { processesWithMarker, uniqueSleep, waitFor } from "../../testing/processes";


let root: string;
const shellTool = new RunCommandTool();
// Hosts hold tools as plain `Tool` (settings unparsed until executeTool parses them).
const tool: Tool = shellTool;

beforeAll(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), "run-command-")));
  mkdirSync(path.join(root, "sub"));
});
afterAll(() => {
  jobTable().stopAll();
  rmSync(root, { recursive: true, force: true });
});

function context(overrides: Partial<Parameters<typeof createToolContext>[0]> = {}, settings: Record<string, unknown> = {}): ToolContext {
  return createToolContext({
    io: new RecordingIOHandler({ shell: "once" }),
    settings: { root, ...settings },
    permissions: { mode: "bypass" },
    ...overrides,
  });
}

function gatedContext(io: IOHandler, guardrails: Partial<Guardrails> = {}): ToolContext {
  return createToolContext({
    io,
    settings: { root },
    permissions: { guardrails: { ...defaultGuardrails(), ...guardrails } },
  });
}

type ResultData = Record<string, unknown>;
const data = (result: ToolResult) => result.data as ResultData;

describe("run_command: declaration", () => {
  it("is the core shell tool with three operations", () => {
    const tool = shellTool;
    expect(tool.name).toBe("run_command");
    expect(tool.title).toBe("Run a Shell Command");
    expect(tool.capabilities).toEqual(["system.shell"]);
    expect(tool.runtime).toBe("local_subprocess");
    expect(tool.domain).toBe("system");
    expect(tool.origin).toBe("core");
    expect(tool.verified).toBe(true);
    expect(Object.keys(tool.operations ?? {})).toEqual(["run", "status", "kill"]);
    expect(tool.isReadOnly({ operation: "status", jobId: "job-1" })).toBe(true);
    expect(tool.isDestructive({ operation: "run", command: "ls" })).toBe(true);
    expect(tool.isReadOnly({ operation: "kill", jobId: "job-1" })).toBe(false);
    expect(tool.isDestructive({ operation: "kill", jobId: "job-1" })).toBe(false);
    expect(tool.requiredSettings()).toEqual(["root"]);
    expect(systemTools().map((each) => each.name)).toEqual(["run_command"]);
    expect(systemTools()[0]).not.toBe(systemTools()[0]);
  });
});

describe("run_command: run", () => {
  it("returns stdout, the exit code and timing", async () => {
    const result = await tool.run({ operation: "run", command: "echo hello" }, context());
    expect(result.isError).toBe(false);
    expect(result.content).toContain("exit code 0");
    expect(result.content).toContain("hello");
    expect(data(result)).toMatchObject({ exitCode: 0, stdout: "hello\n", stderr: "" });
    expect(typeof data(result).durationMs).toBe("number");
  });

  it("reports a non-zero exit code and stderr as an ok result", async () => {
    const result = await tool.run({ operation: "run", command: "echo oops >&2; exit 3" }, context());
    expect(result.isError).toBe(false);
    expect(result.content).toContain("exit code 3");
    expect(result.content).toContain("stderr:\noops");
    expect(data(result)).toMatchObject({ exitCode: 3, stderr: "oops\n" });
  });

  it("runs in the step's folder, or in a folder below it", async () => {
    const atRoot = await tool.run({ operation: "run", command: "pwd" }, context());
    expect(data(atRoot).stdout).toBe(`${root}\n`);
    const inSub = await tool.run({ operation: "run", command: "pwd", cwd: "sub" }, context());
    expect(data(inSub).stdout).toBe(`${path.join(root, "sub")}\n`);
  });

  it("refuses a cwd outside the step's folder or one that does not exist", async () => {
    const outside = await tool.run({ operation: "run", command: "pwd", cwd: "../" }, context());
    expect(outside.isError).toBe(true);
    expect(outside.content).toContain("`cwd`");
    expect(outside.content).toContain("outside the step's folder");
    const missing = await tool.run({ operation: "run", command: "pwd", cwd: "nowhere" }, context());
    expect(missing.isError).toBe(true);
    expect(missing.content).toContain('`cwd`: the folder "nowhere" does not exist');
  });

  it("does not pass the server's environment on, only the workflow's", async () => {
    process.env.NEUROSURFER_TEST_SECRET = "sentinel-value-4821";
    try {
      const result = await tool.run(
        { operation: "run", command: 'echo "[$NEUROSURFER_TEST_SECRET] [$GREETING]"; env' },
        context({}, { environment: { GREETING: "hi there" } }),
      );
      expect(result.isError).toBe(false);
      expect(result.content).toContain("[] [hi there]");
      expect(result.content).not.toContain("sentinel-value-4821");
      expect(result.content).not.toContain("NEUROSURFER_TEST_SECRET");
      const names = String(data(result).stdout)
        .split("\n")
        .slice(1)
        .filter((line) => line.includes("="))
        .map((line) => line.slice(0, line.indexOf("=")));
      // bash adds PWD, SHLVL and _ itself.
      const allowed = ["PATH", "HOME", "LANG", "LC_ALL", "TERM", "TMPDIR", "USER", "GREETING", "PWD", "SHLVL", "_", "OLDPWD"];
      expect(names.filter((name) => !allowed.includes(name))).toEqual([]);
    } finally {
      delete process.env.NEUROSURFER_TEST_SECRET;
    }
  });

  it("caps a large output, keeping its head and tail", async () => {
    const result = await tool.run(
      { operation: "run", command: "echo FIRST; head -c 300000 /dev/zero | tr '\\0' a; echo; echo LAST" },
      context(),
    );
    expect(result.isError).toBe(false);
    expect(result.content.length).toBeLessThanOrEqual(30_000);
    expect(result.content).toContain("FIRST");
    expect(result.content).toContain("LAST");
    expect(result.content).toContain("characters omitted");
  });

  it("says truly how much of a 5 MB output was left out, though its buffer dropped most of it before the result's cut", async () => {
    // FIRST\n + 5,000,000 a's + \n + LAST\n = 5,000,012 characters of stdout.
    const result = await tool.run({ operation: "run", command: "echo FIRST; head -c 5000000 /dev/zero | tr '\\0' a; echo; echo LAST" }, context());
    expect(result.isError).toBe(false);
    const notices = [...result.content.matchAll(/\[([\d,]+) characters omitted\]/g)];
    expect(notices).toHaveLength(1);
    const omitted = Number(notices[0]![1]!.replaceAll(",", ""));
    const stdout = result.content.slice(result.content.indexOf("stdout:\n") + "stdout:\n".length);
    const shown = stdout.replace(/\n… \[[\d,]+ characters omitted\] …\n/, "").length;
    // What was shown plus what the notice counts is the whole (the trailing newline is trimmed from the shown text).
    expect(shown + omitted).toBe(5_000_012 - 1);
  });

  it("stops a command at its time limit, with the processes it started", async () => {
    const started = Date.now();
    const leftover = uniqueSleep();
    const result = await tool.run(
      { operation: "run", command: `${leftover} & echo waiting; sleep 30`, timeoutSeconds: 1 },
      context(),
    );
    expect(Date.now() - started).toBeLessThan(6_000);
    expect(result.isError).toBe(true);
    expect(result.content).toContain("did not finish within 1 s");
    expect(result.content).toContain("waiting");
    await waitFor(() => processesWithMarker(leftover).length === 0);
  });

  it("uses the settings' time limit when the call gives none", async () => {
    const result = await tool.run({ operation: "run", command: "sleep 30" }, context({}, { timeoutSeconds: 1 }));
    expect(result.isError).toBe(true);
    expect(result.content).toContain("within 1 s");
  });

  it("stops the command when the run is cancelled", async () => {
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 300);
    const result = await tool.run({ operation: "run", command: "sleep 30" }, context({ signal: controller.signal }));
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(result.isError).toBe(true);
    expect(result.content).toContain("cancelled");
  });

  it("stops what a finished command left running", async () => {
    const leftover = uniqueSleep();
    const result = await tool.run({ operation: "run", command: `${leftover} & echo started` }, context());
    expect(result.isError).toBe(false);
    await waitFor(() => processesWithMarker(leftover).length === 0);
  });

  it("streams output as events", async () => {
    const events: ToolEvent[] = [];
    await tool.run({ operation: "run", command: "echo streamed" }, context({ events: { emit: (event) => events.push(event) } }));
    expect(events).toContainEqual({ type: "tool-output", tool: "run_command", text: "streamed\n" });
  });

  it("reports bad input naming the field", async () => {
    const noCommand = await tool.run({ operation: "run" }, context());
    expect(noCommand.isError).toBe(true);
    expect(noCommand.content).toContain("`command`");
    const badTimeout = await tool.run({ operation: "run", command: "ls", timeoutSeconds: 99999 }, context());
    expect(badTimeout.isError).toBe(true);
    expect(badTimeout.content).toContain("`timeoutSeconds`");
    const noOperation = await tool.run({ command: "ls" }, context());
    expect(noOperation.isError).toBe(true);
    expect(noOperation.content).toContain("`operation`");
    const notObject = await tool.run("ls", context());
    expect(notObject.isError).toBe(true);
  });

  it("reports bad settings naming the setting", async () => {
    const noRoot = await tool.run({ operation: "run", command: "ls" }, createToolContext({ io: new RecordingIOHandler({ shell: "once" }), permissions: { mode: "bypass" } }));
    expect(noRoot.isError).toBe(true);
    expect(noRoot.content).toContain("settings.root");
    const badEnvironment = await tool.run({ operation: "run", command: "ls" }, context({}, { environment: { "BAD NAME": "x" } }));
    expect(badEnvironment.isError).toBe(true);
    expect(badEnvironment.content).toContain("settings.environment");
  });
});

describe("run_command: background jobs", () => {
  afterEach(() => {
    for (const job of jobTable().list(root)) job.process.stop("killed");
  });

  it("starts a job, reports its output so far, and stops it with its children", async () => {
    const ctx = context();
    const child = uniqueSleep();
    const started = await tool.run({ operation: "run", command: `echo started; ${child} & wait`, background: true }, ctx);
    expect(started.isError).toBe(false);
    const jobId = String(data(started).jobId);
    expect(jobId).toMatch(/^job-\d+$/);

    let status = await tool.run({ operation: "status", jobId }, ctx);
    await waitFor(async () => {
      status = await tool.run({ operation: "status", jobId }, ctx);
      return String(data(status).stdout).includes("started");
    });
    expect(data(status).state).toBe("running");
    expect(status.content).toContain("is running");

    await waitFor(() => processesWithMarker(child).length > 0);
    const killed = await tool.run({ operation: "kill", jobId }, ctx);
    expect(killed.isError).toBe(false);
    expect(data(killed).state).toBe("killed");
    await waitFor(() => processesWithMarker(child).length === 0);

    const after = await tool.run({ operation: "status", jobId }, ctx);
    expect(data(after).state).toBe("killed");
  });

  it("reports the exit code of a finished job", async () => {
    const ctx = context();
    const started = await tool.run({ operation: "run", command: "echo done; exit 4", background: true }, ctx);
    const jobId = String(data(started).jobId);
    let status = await tool.run({ operation: "status", jobId }, ctx);
    await waitFor(async () => {
      status = await tool.run({ operation: "status", jobId }, ctx);
      return data(status).state !== "running";
    });
    expect(data(status)).toMatchObject({ state: "exited", exitCode: 4, stdout: "done\n" });
    expect(status.content).toContain("exit code 4");
  });

  it("refuses unknown jobs and jobs of another folder", async () => {
    const unknown = await tool.run({ operation: "status", jobId: "job-99999" }, context());
    expect(unknown.isError).toBe(true);
    expect(unknown.content).toContain('`jobId`: there is no job "job-99999"');
    const malformed = await tool.run({ operation: "kill", jobId: "1234" }, context());
    expect(malformed.isError).toBe(true);
    expect(malformed.content).toContain("`jobId`");

    const started = await tool.run({ operation: "run", command: "sleep 30", background: true }, context());
    const jobId = String(data(started).jobId);
    const elsewhere = await tool.run({ operation: "kill", jobId }, context({}, { root: path.join(root, "sub") }));
    expect(elsewhere.isError).toBe(true);
    const status = await tool.run({ operation: "status", jobId }, context());
    expect(data(status).state).toBe("running");
  });

  it("needs no approval to check or stop a job", async () => {
    const io = new RecordingIOHandler({ shell: "deny" });
    const started = await tool.run({ operation: "run", command: "sleep 30", background: true }, context());
    const jobId = String(data(started).jobId);
    expect((await tool.run({ operation: "status", jobId }, gatedContext(io))).isError).toBe(false);
    expect((await tool.run({ operation: "kill", jobId }, gatedContext(io))).isError).toBe(false);
    expect(io.asksOf("shell")).toEqual([]);
  });
});

describe("run_command: permission gate", () => {
  it("asks a person in default mode, showing the command", async () => {
    const io = new RecordingIOHandler({ shell: "once" });
    const result = await tool.run({ operation: "run", command: "echo approved", cwd: "sub" }, gatedContext(io));
    expect(result.isError).toBe(false);
    expect(io.asksOf("shell")).toMatchObject([{ kind: "shell", command: "echo approved", workingFolder: "sub", reason: 'Run a shell command in "sub".' }]);
  });

  it("returns the person's feedback when they deny, without running the command", async () => {
    const io = new RecordingIOHandler({ shell: { decision: "deny", feedback: "use ls -la instead" } });
    const result = await tool.run({ operation: "run", command: "touch denied.txt" }, gatedContext(io));
    expect(result.isError).toBe(true);
    expect(result.content).toContain("The person denied running this command.");
    expect(result.content).toContain("use ls -la instead");
    expect(() => readFileSync(path.join(root, "denied.txt"))).toThrow();
  });

  it("refuses without asking when shell commands are denied", async () => {
    const io = new RecordingIOHandler({ shell: "once" });
    const result = await tool.run({ operation: "run", command: "echo hi" }, gatedContext(io, { shellPolicy: "denied" }));
    expect(result.isError).toBe(true);
    expect(result.content).toContain("shell commands are denied");
    expect(io.asksOf("shell")).toEqual([]);
  });

  it("allows read-only commands and refuses others under the readonly policy", async () => {
    const io = new RecordingIOHandler({ shell: "once" });
    const listing = await tool.run({ operation: "run", command: "ls" }, gatedContext(io, { shellPolicy: "readonly" }));
    expect(listing.isError).toBe(false);
    expect(listing.content).toContain("sub");
    const removal = await tool.run({ operation: "run", command: "rm -rf sub" }, gatedContext(io, { shellPolicy: "readonly" }));
    expect(removal.isError).toBe(true);
    expect(removal.content).toContain("only read-only shell commands");
    expect(io.asksOf("shell")).toEqual([]);
  });
});
