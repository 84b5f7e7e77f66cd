import { statSync } from "node:fs";
import { z } from "zod";
import { relativeToRoot } from "../../confinement";
import { defineOperation } from "../../operation";
import type { ToolContext } from "../../tool-context";
import { ToolResult } from "../../tool-result";
import { capOutput, describeExit, formatSeconds, formatStreams } from "./format-output";
import { jobTable, MAX_RUNNING_JOBS } from "./job-table";
import { MAX_COMMAND_SECONDS, type RunCommandSettings } from "./settings";
import { commandEnvironment } from "../shared/command-environment";
import { ShellProcess } from "./shell-process";

/** Live output forwarded as events is capped so a noisy command cannot flood the host. */
const MAX_STREAMED_CHARACTERS = 100_000;

export const RunArgs = z.object({
  command: z
    .string()
    .trim()
    .min(1, "give the command to run")
    .describe("The bash command line to run, e.g. `ls -la` or `npm test 2>&1 | tail -50`."),
  cwd: z
    .string()
    .default(".")
    .describe("Folder to run it in, relative to the step's folder. Defaults to the step's folder itself."),
  timeoutSeconds: z
    .number()
    .int()
    .min(1)
    .max(MAX_COMMAND_SECONDS)
    .optional()
    .describe("Stop the command after this many seconds. Defaults to the step's time limit."),
  background: z
    .boolean()
    .default(false)
    .describe("Start it and return a job id at once, for servers and long builds; check it with `status`, stop it with `kill`."),
});
export type RunArgs = z.infer<typeof RunArgs>;

export const runOperation = defineOperation({
  title: "Run a command",
  description:
    "Run a bash command in the step's folder and return its exit code, stdout and stderr. A non-zero exit code is reported, not treated as a failure. Anything it leaves running is stopped when it ends; use background: true for servers and watchers.",
  inputModel: RunArgs,
  capabilities: ["system.shell"],
  readOnly: false,
  async execute(args, ctx: ToolContext<RunCommandSettings>): Promise<ToolResult> {
    const root = ctx.root ?? ctx.settings.root;
    const shown = relativeToRoot(root, args.cwd);
    if (!isDirectory(args.cwd)) {
      return ToolResult.error(`\`cwd\`: the folder "${shown}" does not exist in the step's folder. Create it first or choose another.`);
    }
    const timeoutSeconds = args.timeoutSeconds ?? ctx.settings.timeoutSeconds;
    const env = commandEnvironment(ctx.settings.environment);

    if (args.background) {
      const jobs = jobTable();
      if (jobs.runningCount() >= MAX_RUNNING_JOBS) {
        return ToolResult.error(`${MAX_RUNNING_JOBS} background jobs are already running. Stop one with operation "kill" first.`);
      }
      // Not tied to ctx.signal: a background job is meant to outlive this call; its time limit still holds.
      const process = ShellProcess.start({ command: args.command, cwd: args.cwd, env, timeoutMs: timeoutSeconds * 1000 });
      const job = jobs.add({ command: args.command, cwd: args.cwd, root, process });
      return ToolResult.ok(
        `Started ${job.id} in the background in "${shown}" (stopped after ${timeoutSeconds} s at the latest). ` +
          `Check it with operation "status" and jobId "${job.id}"; stop it with operation "kill".`,
        { jobId: job.id, command: args.command, cwd: shown, timeoutSeconds },
      );
    }

    let streamed = 0;
    const process = ShellProcess.start({
      command: args.command,
      cwd: args.cwd,
      env,
      timeoutMs: timeoutSeconds * 1000,
      signal: ctx.signal,
      onOutput: (_stream, text) => {
        if (streamed >= MAX_STREAMED_CHARACTERS) return;
        streamed += text.length;
        ctx.events.emit({ type: "tool-output", tool: "run_command", text });
      },
    });
    const outcome = await process.done;
    const { stdout, stderr } = capOutput(process.stdout.kept(), process.stderr.kept());
    const streams = formatStreams(stdout, stderr);
    const took = formatSeconds(outcome.durationMs);

    switch (outcome.ending) {
      case "spawn_failed":
        return ToolResult.error(`The command could not be started: ${outcome.error ?? "unknown error"}.`);
      case "timed_out":
        return ToolResult.error(
          `The command did not finish within ${timeoutSeconds} s and was stopped, with everything it started. ` +
            `Give a longer timeoutSeconds (at most ${MAX_COMMAND_SECONDS}), or run it with background: true.\n${streams}`,
        );
      case "cancelled":
      case "killed":
        return ToolResult.error(`The command was cancelled after ${took} and stopped, with everything it started.\n${streams}`);
      case "exited": {
        const exit = describeExit(outcome);
        const verdict = outcome.exitCode === 0 ? "" : " (the command reported a failure; see its output)";
        return ToolResult.ok(`Finished with ${exit} after ${took}${verdict}.\n${streams}`, {
          exitCode: outcome.exitCode,
          signal: outcome.signal,
          stdout,
          stderr,
          durationMs: outcome.durationMs,
          cwd: shown,
        });
      }
    }
  },
});

function isDirectory(folder: string): boolean {
  try {
    return statSync(folder).isDirectory();
  } catch {
    return false;
  }
}
