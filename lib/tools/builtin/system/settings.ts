import { z } from "zod";
import { WorkingDirectory } from "../shared/working-directory";

/** The longest a command may run, in seconds, whoever asks. */
export const MAX_COMMAND_SECONDS = 3600;
export const DEFAULT_COMMAND_SECONDS = 120;

const ENVIRONMENT_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Settings of `run_command`: the folder commands run in, how long they may
 * run, and extra environment variables. The studio's own environment never
 * reaches a command (it holds the studio's secret key).
 */
export const RunCommandSettings = WorkingDirectory.extend({
  timeoutSeconds: z
    .number()
    .int()
    .min(1)
    .max(MAX_COMMAND_SECONDS)
    .default(DEFAULT_COMMAND_SECONDS)
    .meta({
      title: "Time limit (seconds)",
      description: `How long a command may run before it is stopped, unless the call asks for another limit (at most ${MAX_COMMAND_SECONDS}).`,
    }),
  environment: z
    .record(z.string().regex(ENVIRONMENT_NAME, "use letters, digits and _ for variable names"), z.string())
    .optional()
    .meta({
      title: "Environment variables",
      description:
        "Extra environment variables for every command. Not secret: they are stored and shown as written, so never put keys or passwords here.",
    }),
}).meta({ title: "Shell", description: "The folder commands run in, their time limit and their environment." });

export type RunCommandSettings = z.infer<typeof RunCommandSettings>;
