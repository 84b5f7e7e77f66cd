import { modelToolSchema, type ModelToolSchema } from "./schemas";
import type { Tool } from "./tool";
import { markedError } from "../marked-error";

/** A model-side name for a tool, mapped to the real one ("cat" -> "read_file"). */
export const TOOL_ALIASES: Readonly<Record<string, string>> = {
  cat: "read_file",
  read: "read_file",
  open_file: "read_file",
  save_file: "write_file",
  create_file: "write_file",
  write: "write_file",
  edit_file: "apply_edit",
  edit: "apply_edit",
  str_replace: "apply_edit",
  ls: "list_dir",
  list_files: "list_dir",
  grep: "search",
  find: "search",
  glob: "search",
  rg: "search",
  shell: "run_command",
  bash: "run_command",
  exec: "run_command",
  sh: "run_command",
  curl: "http",
  fetch: "http",
};

/** Thrown when a pool is asked for tools it does not have; lists the ones it has. */
export class UnknownToolError extends markedError("neurosurfer.unknown-tool", "UnknownToolError") {
  constructor(readonly unknown: readonly string[], readonly known: readonly string[]) {
    super(`Unknown tool${unknown.length > 1 ? "s" : ""}: ${unknown.join(", ")}. Known tools: ${known.join(", ")}.`);
  }
}

/**
 * The tools an agent may use. Small on purpose: every selected tool's schema
 * is sent to the model every turn.
 *
 * @example
 *   const pool = new ToolPool([...allTools(), new AddTool()]);
 *   pool.get("add")?.title // "Add numbers"
 */
export class ToolPool {
  private readonly byName = new Map<string, Tool>();

  constructor(tools: Iterable<Tool>) {
    for (const tool of tools) {
      if (this.byName.has(tool.name)) throw new Error(`Two tools are named "${tool.name}"; tool names must be unique in a pool.`);
      this.byName.set(tool.name, tool);
    }
  }

  /** The tool named `name`, or one of its model-side aliases ("cat", "ls", "shell"). */
  get(name: string): Tool | undefined {
    const direct = this.byName.get(name);
    if (direct) return direct;
    const alias = Object.hasOwn(TOOL_ALIASES, name) ? TOOL_ALIASES[name] : undefined;
    return alias ? this.byName.get(alias) : undefined;
  }

  has(name: string): boolean {
    return this.get(name) !== undefined;
  }

  /** Every enabled tool. */
  all(): Tool[] {
    return [...this.byName.values()].filter((tool) => tool.isEnabled());
  }

  /** A narrower pool; an unknown name is an error listing the known ones. */
  select(names: Iterable<string>): ToolPool {
    const wanted = [...names];
    const unknown = wanted.filter((name) => !this.get(name));
    if (unknown.length > 0) throw new UnknownToolError(unknown, this.names());
    return new ToolPool([...new Set(wanted.map((name) => this.get(name)!))]);
  }

  /** Names of the enabled tools. */
  names(): string[] {
    return this.all().map((tool) => tool.name);
  }

  /**
   * The model-facing function schemas of the enabled tools. Settings and
   * secret inputs are never in them; `bound` hides builder-bound arguments per tool.
   */
  schemas(bound: Readonly<Record<string, readonly string[]>> = {}): ModelToolSchema[] {
    return this.all().map((tool) => modelToolSchema(tool, bound[tool.name] ?? []));
  }
}
