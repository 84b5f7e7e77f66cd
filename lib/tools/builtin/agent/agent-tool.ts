import { CoreTool, type ToolIdentity } from "../shared/core-tool";

/**
 * A tool of the agent's own conversation (asking the person, keeping its task list, finishing). None changes anything
 * outside the run (asking only waits, the list is the agent's notebook, finishing ends its loop), so none need pass
 * the permission gate; and they go one at a time: two questions at once would confuse the person answering, and two
 * lists or two answers would race each other.
 */
export abstract class AgentTool<Args> extends CoreTool<Args> {
  constructor(identity: ToolIdentity<Args>) {
    super({ ...identity, domain: "agent", readOnly: true, concurrencySafe: false });
  }
}
