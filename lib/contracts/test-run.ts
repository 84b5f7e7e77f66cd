import { z } from "zod";
import { StepOutputSchema } from "./run";

/** Where a node on a test run's way gets its output: it runs, it is kept (its pin, the last run, typed values), or it has none yet. */
export const TEST_RUN_SOURCES = ["runs", "pin", "last-run", "typed", "missing"] as const;
export const TestRunSourceSchema = z.enum(TEST_RUN_SOURCES);
export type TestRunSource = z.infer<typeof TestRunSourceSchema>;

/** GET /api/workflows/{id}/test-runs: what a test run of a node would run and keep, so the editor can ask for what is missing. */
export const TestRunPreviewSchema = z.object({
  nodeId: z.string(),
  mode: z.enum(["step", "up-to"]),
  /** The version it would run (the saved draft). */
  version: z.number().int().positive(),
  /** Each node on the way, in the workflow's order; `fromRunId`: the run it is kept from (a pin's: the run it was pinned from). */
  sources: z.array(z.object({ nodeId: z.string(), source: TestRunSourceSchema, fromRunId: z.string().nullable() })),
  /** Nodes with no pin and no run: values must be typed for them (`values.<nodeId>`). */
  missing: z.array(z.string()),
  /** The inputs it would run with, and from where: the workflow's newest run, else the input fields' defaults. */
  inputs: z.record(z.string(), z.unknown()),
  inputsFrom: z.enum(["last-run", "defaults"]),
  /** The tested node's own newest output in the workflow's runs (what "Pin the last output" pins), or null. */
  latest: z.object({ runId: z.string(), output: StepOutputSchema }).nullable(),
});
export type TestRunPreview = z.infer<typeof TestRunPreviewSchema>;
