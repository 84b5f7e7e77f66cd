import { z } from "zod";
import { AgentTool } from "./agent-tool";
import type { ToolContext } from "../../tool-context";
import { ToolResult } from "../../tool-result";

const AskUserArgs = z.object({
  question: z.string().trim().min(1, "write the question to ask").describe("The question for the person, in one or two sentences."),
  options: z
    .array(z.string().min(1))
    .max(10)
    .optional()
    .describe("Choices to offer, when the answer is one of a few; the person may still answer in their own words."),
});
type AskUserArgs = z.infer<typeof AskUserArgs>;

/** Asks the person running the workflow a question and waits for the answer. */
export class AskUserTool extends AgentTool<AskUserArgs> {
  constructor() {
    super({
      name: "ask_user",
      title: "Ask a Person",
      icon: "message-circle-question",
      description:
        "Ask the person running this workflow a question and wait for their answer. Use it when a decision is theirs to make or information is missing; do not use it for confirmation of routine steps.",
      inputModel: AskUserArgs,
    });
  }

  override progressMessage(args: AskUserArgs): string {
    return `Asking: ${args.question}`;
  }

  override async call(args: AskUserArgs, ctx: ToolContext): Promise<ToolResult> {
    const answer = await ctx.io.ask(args.question, args.options);
    if (answer.trim() === "") return ToolResult.ok("The person gave no answer. Proceed with your best judgement and say what you assumed.");
    return ToolResult.ok(answer);
  }
}
