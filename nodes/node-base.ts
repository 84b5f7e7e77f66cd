import { z } from "zod";
import { ApprovalPolicySchema } from "@/lib/contracts/approval-policy";
import { NodeExecutionSchema } from "@/lib/contracts/execution-settings";

// The fields every node kind shares. Its own module so lib/workflow/definition.ts and
// each nodes/<kind>/definition.ts can both import it without importing each other.

const NODE_ID = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/** A name a template can refer to: an input's name, a route's id. */
export const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

export const NodeIdSchema = z
  .string()
  .regex(NODE_ID, "a node id starts with a letter and has at most 64 letters, digits, - or _");

export const PositionSchema = z.object({ x: z.number().finite(), y: z.number().finite() });

/** Spread into each kind's schema: `z.object({ ...nodeBase, kind: z.literal("…"), … })`. */
export const nodeBase = {
  id: NodeIdSchema,
  /** What the canvas card shows; defaults to the tool's title. */
  label: z.string().max(200).optional(),
  position: PositionSchema.default({ x: 0, y: 0 }),
};

/**
 * Spread into the schema of a kind whose nodes can fail in ways worth
 * handling (a tool, an agent, a router): retries, a time limit and what
 * happens on error (lib/contracts/execution-settings.ts). Such a kind also
 * says `handlesFailures: true` in its definition.
 */
export const failureHandling = {
  execution: NodeExecutionSchema.optional(),
};

/**
 * Spread into the schema of a kind whose steps can wait for a person (a tool,
 * an agent): who decides its approvals and how many must
 * (lib/contracts/approval-policy.ts); unset, the workflow's policy for the
 * approval's kind.
 */
export const approvalPolicy = {
  approvals: ApprovalPolicySchema.optional(),
};
