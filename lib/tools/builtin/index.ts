import { ToolPool } from "../tool-pool";
import type { Tool } from "../tool";
import { agentTools } from "./agent";
import { codeTools } from "./code";
import { dataTools } from "./data";
import { databaseTools } from "./database";
import { filesystemTools } from "./filesystem";
import { systemTools } from "./system";
import { webTools } from "./web";

/**
 * A fresh instance of every built-in tool.
 *
 * @example
 *   allTools().map((tool) => tool.title) // ["Read a File", "Write a File", ...]
 */
export function allTools(): Tool[] {
  return [...filesystemTools(), ...dataTools(), ...databaseTools(), ...systemTools(), ...webTools(), ...codeTools(), ...agentTools()];
}

/** A pool of every built-in tool. */
export function defaultPool(): ToolPool {
  return new ToolPool(allTools());
}

/**
 * A pool narrowed to an allow-list; an unknown name is an error that lists the known ones.
 *
 * @example
 *   const safe = buildPool(["read_file", "list_dir", "search"]);
 */
export function buildPool(names: Iterable<string>): ToolPool {
  return defaultPool().select(names);
}
