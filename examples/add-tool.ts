import { z } from "zod";
import { allTools, Tool, ToolPool, ToolResult, type ToolContext } from "@/lib/tools";

const AddArgs = z.object({
  a: z.number().describe("first number"),
  b: z.number().describe("second number"),
});
type AddArgs = z.infer<typeof AddArgs>;

export class AddTool extends Tool<AddArgs> {
  name = "add";
  title = "Add numbers";
  description = "Add two numbers and return the sum.";
  inputModel = AddArgs;

  override isReadOnly(): boolean {
    return true; // pure, side-effect-free => concurrency-safe
  }

  override async call(args: AddArgs, _ctx: ToolContext): Promise<ToolResult> {
    return ToolResult.ok(String(args.a + args.b));
  }
}

export const pool = new ToolPool([...allTools(), new AddTool()]); // built-ins + your tool
// or just your own tools:  new ToolPool([new AddTool()])
