import { z } from "zod";
import { AgentTool } from "./agent-tool";
import { ToolResult } from "../../tool-result";

const FinishArgs = z.object({
  answer: z.string().min(1, "give the final answer").describe("The final answer or summary of what was done, for the person."),
});
type FinishArgs = z.infer<typeof FinishArgs>;

/** Ends the agent's work with a final answer. */
export class FinishTool extends AgentTool<FinishArgs> {
  constructor() {
    super({
      name: "finish",
      title: "Finish",
      icon: "flag",
      description: "Finish the task and give the final answer. Call it once, when the work is done.",
      inputModel: FinishArgs,
    });
  }

  override progressMessage(): string {
    return "Finishing…";
  }

  override async call(args: FinishArgs): Promise<ToolResult> {
    return ToolResult.withControl(args.answer, { kind: "finish", value: args.answer });
  }
}
