import type { Tool } from "../../tool";
import { BrowseTool } from "./browse";
import { HttpTool } from "./http";
import { WebSearchTool } from "./web-search";

export { BrowseTool, HttpTool, WebSearchTool };

/** The tools that reach the web: raw HTTP requests, a real browser, and search. */
export function webTools(): Tool[] {
  return [new HttpTool(), new BrowseTool(), new WebSearchTool()];
}
