import type { z } from "zod";
import type { Capability } from "./registry/capabilities";
import type { ToolContext } from "./tool-context";
import type { ToolResult } from "./tool-result";

/**
 * One distinct action of a tool ("Run a query" of the SQL tool). Each carries
 * its own input model, so a caller configuring it is shown only the arguments
 * it needs.
 */
export interface Operation<Args = Record<string, unknown>, Settings = Record<string, unknown>> {
  title: string;
  description: string;
  inputModel: z.ZodObject<z.ZodRawShape, z.core.$ZodObjectConfig> & z.ZodType<Args>;
  capabilities: readonly Capability[];
  readOnly: boolean;
  /** Defaults to `!readOnly`. Set false for an action that changes only the tool's own state. */
  destructive?: boolean;
  /** Defaults to `readOnly`. */
  concurrencySafe?: boolean;
  execute(args: Args, ctx: ToolContext<Settings>): Promise<ToolResult>;
}

/**
 * Declares an operation with its argument type inferred from its input model.
 *
 * @example
 *   export const queryOperation = defineOperation({
 *     title: "Run a query", description: "...", inputModel: QueryArgs,
 *     capabilities: ["db.query"], readOnly: true,
 *     async execute(args, ctx) { ... },
 *   });
 */
export function defineOperation<Args, Settings = Record<string, unknown>>(
  operation: Operation<Args, Settings>,
): Operation<Args, Settings> {
  return operation;
}
