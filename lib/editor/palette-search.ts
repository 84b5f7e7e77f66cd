import type { CatalogOperation, CatalogTool } from "@/lib/contracts/catalog";
import { capabilitiesForQuery, queryStems, stem, words } from "./capability-search";

export interface ToolMatch {
  tool: CatalogTool;
  /** The operations to list under the tool: all of them, or those the query found. */
  operations: CatalogOperation[];
  /** The capability tags through which the query found the tool ("provides file.write"). */
  viaCapabilities: string[];
}

function textMatches(query: string, stems: readonly string[], ...texts: string[]): boolean {
  const haystack = texts.join(" ").toLowerCase();
  if (haystack.includes(query)) return true;
  if (stems.length === 0) return false;
  const available = new Set(words(haystack).map(stem));
  return stems.every((each) => available.has(each));
}

/**
 * Filters the palette: a tool matches on its title or description, through
 * one of its operations' titles or descriptions, or because it provides a
 * capability the query means ("write a file" finds what provides file.write).
 * An empty query keeps every usable tool; one the studio cannot call
 * (`unavailable`) is never offered. The catalog's order is kept.
 */
export function searchCatalog(catalog: readonly CatalogTool[], rawQuery: string): ToolMatch[] {
  const tools = catalog.filter((tool) => !tool.unavailable);
  const query = rawQuery.trim().toLowerCase();
  if (query === "") return tools.map((tool) => ({ tool, operations: tool.operations, viaCapabilities: [] }));
  const stems = queryStems(query);
  const capabilities = new Set<string>(capabilitiesForQuery(query));
  const matches: ToolMatch[] = [];
  for (const tool of tools) {
    const viaCapabilities = tool.capabilities.filter((tag) => capabilities.has(tag));
    const toolText = textMatches(query, stems, tool.title, tool.description);
    const operations = tool.operations.filter(
      (operation) =>
        textMatches(query, stems, operation.title, operation.description) || operation.capabilities.some((tag) => capabilities.has(tag)),
    );
    if (toolText || viaCapabilities.length > 0 || operations.length > 0) {
      matches.push({ tool, operations: toolText || operations.length === 0 ? tool.operations : operations, viaCapabilities });
    }
  }
  return matches;
}
