import { z } from "zod";
import { ApprovalDecisionSchema, ApprovalStatusSchema } from "@/lib/contracts/approval";
import { RunStatusSchema } from "@/lib/contracts/run-status";
import { PinnedOutputSchema } from "@/lib/contracts/pins";

/** POST /workflows/:id/runs */
export const StartRunBodySchema = z.object({
  inputs: z.record(z.string(), z.unknown()).default({}),
  /** Run an earlier version; default the newest. */
  version: z.number().int().positive().optional(),
});
export type StartRunBody = z.infer<typeof StartRunBodySchema>;

export { RunStatusSchema };

/** Which version a run again runs: the one the run it repeats ran, or the workflow's newest. */
export const RERUN_VERSIONS = ["same", "latest"] as const;

/** POST /runs/:id/rerun */
export const RerunBodySchema = z.object({
  version: z.enum(RERUN_VERSIONS).describe('"same": the version the run ran; "latest": the workflow\'s newest version'),
});
export type RerunBody = z.infer<typeof RerunBodySchema>;

/** POST /approvals/:id */
export const DecisionBodySchema = z.object({
  decision: ApprovalDecisionSchema,
  /** A reason for a denial or an instruction ("no, do this instead"); for questions, the answer. */
  feedback: z.string().trim().max(10_000).optional(),
  /**
   * The approval's digest as the deciding card rendered it: a decision about
   * something other than what would run now is refused (409). The card
   * always sends it; scripts may leave it out.
   */
  digest: z.string().max(200).optional(),
  /**
   * "Edit and approve" a tool call (write, shell, network, MCP): the
   * arguments to run instead, with an approving decision (once or approve).
   * Checked against the tool's input model as a model's call is; 422 naming
   * each field otherwise. Secret inputs stay as shown.
   */
  arguments: z.record(z.string(), z.unknown()).optional(),
  /** "Edit and approve" a plan: the plan the agent continues under, with `approve`. */
  plan: z.string().trim().min(1).max(100_000).optional(),
});
export type DecisionBody = z.infer<typeof DecisionBodySchema>;

/** The `reason` of a 409 whose digest is not the approval's: the card shows the message rather than "decided elsewhere". */
export const DIGEST_MISMATCH = "digest-mismatch";

export const APPROVALS_FOR = ["me", "team"] as const;

/** GET /approvals */
export const ListApprovalsQuerySchema = z.object({
  status: ApprovalStatusSchema.optional(),
  runId: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(200),
  /** `me`: those the caller may decide; `team`: those they see and others decide (their card says who may); unset: both. */
  for: z.enum(APPROVALS_FOR).optional(),
});

/** Run this step (the node alone) or Run up to here (the paths that lead to it). */
export const TEST_RUN_MODES = ["step", "up-to"] as const;

/** GET /workflows/:id/test-runs: what a test run of a node would run and keep, before starting it. */
export const TestRunQuerySchema = z.object({
  nodeId: z.string().min(1).max(200).describe("The node to test"),
  mode: z.enum(TEST_RUN_MODES).default("step"),
});
export type TestRunQuery = z.infer<typeof TestRunQuerySchema>;

/** POST /workflows/:id/test-runs */
export const TestRunBodySchema = TestRunQuerySchema.extend({
  /** Default: the inputs of the workflow's newest run (else the input fields' defaults). */
  inputs: z.record(z.string(), z.unknown()).optional(),
  /** Outputs typed for the occasion, by node id, for upstream nodes with no pin and no run: the shape of a pin. */
  values: z.record(z.string(), PinnedOutputSchema).default({}),
  /** Test an earlier version; default the newest (the saved draft). */
  version: z.number().int().positive().optional(),
});
export type TestRunBody = z.infer<typeof TestRunBodySchema>;
