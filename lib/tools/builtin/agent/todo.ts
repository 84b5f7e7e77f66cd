import { z } from "zod";
import { AgentTool } from "./agent-tool";
import type { ToolContext } from "../../tool-context";
import { ToolResult } from "../../tool-result";

const TodoItem = z.object({
  content: z.string().trim().min(1, "describe the task").describe("The task, as an imperative sentence."),
  status: z.enum(["pending", "in_progress", "completed"]).describe("Where the task stands."),
});

const TodoArgs = z.object({
  items: z.array(TodoItem).max(50).describe("The whole list, replacing the previous one. Keep at most one item in_progress."),
});
type TodoArgs = z.infer<typeof TodoArgs>;

/** The key under which the current list lives in `ctx.extra`, so hosts can persist it. */
export const TODO_STATE_KEY = "todo";

/** Keeps the agent's task list, shown live in the studio. */
export class TodoTool extends AgentTool<TodoArgs> {
  constructor() {
    super({
      name: "todo",
      title: "Task List",
      icon: "list-checks",
      description:
        "Write down the steps of a multi-step task and keep their status current, so the person can follow your progress. Send the whole list each time.",
      inputModel: TodoArgs,
    });
  }

  override progressMessage(): string {
    return "Updating the task list…";
  }

  override async call(args: TodoArgs, ctx: ToolContext): Promise<ToolResult> {
    const inProgress = args.items.filter((item) => item.status === "in_progress").length;
    if (inProgress > 1) {
      return ToolResult.error(`\`items\`: ${inProgress} tasks are in_progress; keep at most one in_progress at a time.`);
    }
    ctx.extra[TODO_STATE_KEY] = args.items;
    ctx.events.emit({ type: "todo-update", tool: this.name, items: args.items });
    const done = args.items.filter((item) => item.status === "completed").length;
    const lines = args.items.map((item) => `${item.status === "completed" ? "[x]" : item.status === "in_progress" ? "[~]" : "[ ]"} ${item.content}`);
    return ToolResult.ok(`${done} of ${args.items.length} done.\n${lines.join("\n")}`, { items: args.items });
  }
}
