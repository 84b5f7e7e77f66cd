import type { CatalogTool } from "@/lib/contracts/catalog";
import { domainInfo, domainRank } from "./tool-domains";

/** One group of the Tools page: a domain and its tools. */
export interface DomainGroup {
  domain: string;
  title: string;
  description: string;
  tools: CatalogTool[];
}

/**
 * Tools grouped for the Tools page: known domains first in their usual
 * order, then any other domain alphabetically; tools keep the order they
 * were given.
 *
 * @example
 *   groupToolsByDomain(allTools().map(catalogEntry)).map((group) => group.title) // ["Files", ..., "Agent Control"]
 */
export function groupToolsByDomain(tools: readonly CatalogTool[]): DomainGroup[] {
  const groups = new Map<string, DomainGroup>();
  for (const tool of tools) {
    let group = groups.get(tool.domain);
    if (!group) {
      const info = domainInfo(tool.domain);
      group = { domain: tool.domain, title: info.title, description: info.description, tools: [] };
      groups.set(tool.domain, group);
    }
    group.tools.push(tool);
  }
  return [...groups.values()].sort(
    (left, right) => domainRank(left.domain) - domainRank(right.domain) || left.domain.localeCompare(right.domain),
  );
}
