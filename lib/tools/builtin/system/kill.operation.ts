import { defineOperation } from "../../operation";
import type { ToolContext } from "../../tool-context";
import { ToolResult } from "../../tool-result";
import type { RunCommandSettings } from "./settings";
import { describeJob, findJob, JobArgs } from "./status.operation";

export const killOperation = defineOperation({
  title: "Stop a background job",
  description: "Stop a background job this tool started, with every process it started, and return its final output.",
  inputModel: JobArgs,
  capabilities: ["system.shell"],
  readOnly: false,
  // It only stops a job this tool started: the tool's own state, so no approval.
  destructive: false,
  async execute(args, ctx: ToolContext<RunCommandSettings>): Promise<ToolResult> {
    const job = findJob(args.jobId, ctx);
    if (job instanceof ToolResult) return job;
    if (!job.process.running) return describeJob(job);
    job.process.stop("killed");
    await job.process.done;
    return describeJob(job);
  },
});
