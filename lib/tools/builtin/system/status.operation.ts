import { z } from "zod";
import { relativeToRoot } from "../../confinement";
import { defineOperation } from "../../operation";
import type { ToolContext } from "../../tool-context";
import { ToolResult } from "../../tool-result";
import { capOutput, describeExit, formatSeconds, formatStreams } from "./format-output";
import { jobTable, type BackgroundJob } from "./job-table";
import type { RunCommandSettings } from "./settings";

export const JobArgs = z.object({
  jobId: z
    .string()
    .trim()
    .regex(/^job-\d+$/, 'expected a job id such as "job-1", as returned by a background run')
    .describe('The id a background run returned, e.g. "job-1".'),
});
export type JobArgs = z.infer<typeof JobArgs>;

/** The job of this step's folder with that id, or an error naming the field. */
export function findJob(jobId: string, ctx: ToolContext<RunCommandSettings>): BackgroundJob | ToolResult {
  const root = ctx.root ?? ctx.settings.root;
  const job = jobTable().get(jobId);
  // Jobs of other steps' folders are not this step's business.
  if (!job || job.root !== root) {
    const known = jobTable().list(root).map((each) => each.id);
    const hint = known.length > 0 ? ` Known jobs: ${known.join(", ")}.` : " No background jobs are known in this folder.";
    return ToolResult.error(`\`jobId\`: there is no job "${jobId}" (finished jobs are forgotten after a while).${hint}`);
  }
  return job;
}

/** A job's state and output so far, as text and data. */
export function describeJob(job: BackgroundJob): ToolResult {
  const outcome = job.process.result;
  const { stdout, stderr } = capOutput(job.process.stdout.kept(), job.process.stderr.kept());
  const cwd = relativeToRoot(job.root, job.cwd);
  const elapsed = formatSeconds((outcome ? job.process.startedAt + outcome.durationMs : Date.now()) - job.process.startedAt);
  let state: string;
  let headline: string;
  if (!outcome) {
    state = "running";
    headline = `${job.id} is running (for ${elapsed}).`;
  } else if (outcome.ending === "exited") {
    state = "exited";
    headline = `${job.id} finished with ${describeExit(outcome)} after ${elapsed}.`;
  } else if (outcome.ending === "spawn_failed") {
    state = "failed";
    headline = `${job.id} could not be started: ${outcome.error ?? "unknown error"}.`;
  } else {
    state = outcome.ending;
    const why = outcome.ending === "timed_out" ? "reached its time limit" : "was stopped";
    headline = `${job.id} ${why} after ${elapsed}.`;
  }
  return ToolResult.ok(`${headline}\ncommand: ${job.command}\n${formatStreams(stdout, stderr)}`, {
    jobId: job.id,
    state,
    command: job.command,
    cwd,
    exitCode: outcome?.exitCode ?? null,
    signal: outcome?.signal ?? null,
    stdout,
    stderr,
  });
}

export const statusOperation = defineOperation({
  title: "Check a background job",
  description: "Report whether a background job is still running, its exit code once finished, and its output so far.",
  inputModel: JobArgs,
  capabilities: ["system.shell"],
  readOnly: true,
  async execute(args, ctx: ToolContext<RunCommandSettings>): Promise<ToolResult> {
    const job = findJob(args.jobId, ctx);
    return job instanceof ToolResult ? job : describeJob(job);
  },
});
