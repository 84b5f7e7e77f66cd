import { executeTool } from "./execute-tool";
import { ToolBase, type RunOptions } from "./tool-base";
import type { ToolContext } from "./tool-context";
import type { ToolResult } from "./tool-result";

export { operationsInputModel, TOOL_ORIGINS, TOOL_RUNTIMES, type OperationArgs, type RunOptions, type ToolOrigin, type ToolRuntime } from "./tool-base";

/**
 * An action an agent can take. Subclass it, declare an input model, and
 * implement `call()`; or declare `operations` and let the base class route.
 *
 * @example
 *   const AddArgs = z.object({ a: z.number().describe("first number"), b: z.number().describe("second number") });
 *   class AddTool extends Tool<z.infer<typeof AddArgs>> {
 *     name = "add";
 *     title = "Add numbers";
 *     description = "Add two numbers and return the sum.";
 *     inputModel = AddArgs;
 *     override isReadOnly() { return true; }
 *     override async call(args: z.infer<typeof AddArgs>) { return ToolResult.ok(String(args.a + args.b)); }
 *   }
 */
export abstract class Tool<Args = Record<string, unknown>, Settings = Record<string, unknown>> extends ToolBase<Args, Settings> {
  /**
   * Validates, confines, resolves secrets, passes the permission gate, then
   * calls. Never throws for bad input: it comes back as `ToolResult.error`.
   * Takes any context: the settings in it are validated against the settings model here.
   */
  async run(args: unknown, ctx: ToolContext<unknown>, options: RunOptions = {}): Promise<ToolResult> {
    return executeTool(this as unknown as ToolBase, args, ctx as unknown as ToolContext, options);
  }
}
