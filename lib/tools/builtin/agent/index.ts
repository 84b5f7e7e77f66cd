import type { Tool } from "../../tool";
import { AskUserTool } from "./ask-user";
import { FinishTool } from "./finish";
import { TodoTool } from "./todo";

export { AskUserTool, FinishTool, TodoTool };

/** The control tools agents use to talk to a person, track steps and finish. */
export function agentTools(): Tool[] {
  return [new AskUserTool(), new TodoTool(), new FinishTool()];
}
