import path from "node:path";
import { relativeToRoot } from "../../confinement";
import type { PermissionRequest } from "../../permissions/permission-request";
import type { OperationArgs } from "../../tool";
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
  constructor() {
    super({
      name: "run_command",
      title: "Run a Shell Command",
      icon: "terminal",
      domain: "system",
      description:
        "Run a bash command on this machine in the step's folder and read its exit code and output. Long-running commands (servers, watchers) can run as background jobs that you check and stop later.",
      operations: { run: runOperation, status: statusOperation, kill: killOperation },
      capabilities: ["system.shell"],
      runtime: "local_subprocess",
      settingsModel: RunCommandSettings,
      rootSetting: "root",
      pathInputs: ["cwd"],
    });
  }

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
