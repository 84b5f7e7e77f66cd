import path from "node:path";
import { relativeToRoot } from "../../confinement";
import type { PermissionRequest } from "../../permissions/permission-request";
import { operationsInputModel, type OperationArgs } from "../../tool";
import { CoreTool } from "../shared/core-tool";
import type { ToolContext } from "../../tool-context";
import { killOperation } from "./kill.operation";
import { runOperation } from "./run.operation";
import { RunCommandSettings } from "./settings";
import { statusOperation } from "./status.operation";

/**
 * Runs bash commands in the step's folder, in the foreground or as
 * background jobs, with a sanitised environment and a time limit.
 *
 * @example
 *   const ctx = createToolContext({ io, settings: { root: "/srv/project" } });
 *   await new RunCommandTool().run({ operation: "run", command: "npm test" }, ctx);
 */
export class RunCommandTool extends CoreTool<OperationArgs, RunCommandSettings> {
  readonly name = "run_command";
  readonly title = "Run a Shell Command";
  readonly description =
    "Run a bash command on this machine in the step's folder and read its exit code and output. Long-running commands (servers, watchers) can run as background jobs that you check and stop later.";
  readonly icon = "terminal";
  readonly domain = "system";
  readonly runtime = "local_subprocess" as const;
  readonly capabilities = ["system.shell"] as const;
  readonly settingsModel = RunCommandSettings;
  readonly rootSetting = "root";
  readonly pathInputs = ["cwd"] as const;
  readonly operations = { run: runOperation, status: statusOperation, kill: killOperation };
  readonly inputModel = operationsInputModel(this.operations);

  override progressMessage(args: OperationArgs): string {
    if (args.operation === "run" && typeof args.command === "string") return `Running \`${args.command}\`…`;
    if (typeof args.jobId === "string") return args.operation === "kill" ? `Stopping ${args.jobId}…` : `Checking ${args.jobId}…`;
    return super.progressMessage(args);
  }

  /** The command itself, and where and how it will run, for the person approving it. */
  override async describeAction(args: OperationArgs, ctx: ToolContext<RunCommandSettings>): Promise<PermissionRequest[]> {
    if (args.operation !== "run" || typeof args.command !== "string") return super.describeAction(args, ctx);
    const root = ctx.root ?? ctx.settings.root;
    const cwd = typeof args.cwd === "string" ? relativeToRoot(root, args.cwd) : ".";
    const where = cwd === "." ? "in the step's folder" : `in "${cwd}"`;
    const how = args.background === true ? " as a background job" : "";
    const background = args.background === true;
    return [
      {
        kind: "shell",
        command: args.command,
        workingFolder: cwd,
        reason: `Run a shell command ${where}${how}.`,
        preview: { kind: "command", command: args.command, workingFolder: cwd, folder: path.resolve(root, cwd), background },
      },
    ];
  }
}
