import { CAPABILITIES, isCapability } from "@/lib/tools/contracts";
import type { Tool, ToolRuntime } from "@/lib/tools";
import { domainInfo, domainRank } from "./tool-domains";

export interface CapabilitySummary {
  tag: string;
  description: string;
}

export interface OperationSummary {
  /** Stable identifier of the operation. */
  name: string;
  title: string;
  description: string;
  readOnly: boolean;
}

/** What the catalog shows of one tool: plain data, safe to hand to any component. */
export interface ToolSummary {
  name: string;
  title: string;
  description: string;
  icon: string | null;
  domain: string;
  readOnly: boolean;
  capabilities: CapabilitySummary[];
  operations: OperationSummary[];
  runtime: ToolRuntime;
  configurable: boolean;
  secretInputs: string[];
}

export interface DomainGroup {
  domain: string;
  title: string;
  description: string;
  tools: ToolSummary[];
}

/** The tool's own capabilities and those of its operations, each once, in declaration order. */
function capabilitiesOf(tool: Tool): CapabilitySummary[] {
  const tags = new Set<string>(tool.capabilities);
  for (const operation of Object.values(tool.operations ?? {})) {
    for (const tag of operation.capabilities) tags.add(tag);
  }
  return [...tags].map((tag) => ({ tag, description: isCapability(tag) ? CAPABILITIES[tag] : "" }));
}

export function summarizeTool(tool: Tool): ToolSummary {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    icon: tool.icon,
    domain: tool.domain,
    readOnly: tool.isReadOnly(),
    capabilities: capabilitiesOf(tool),
    operations: Object.entries(tool.operations ?? {}).map(([name, operation]) => ({
      name,
      title: operation.title,
      description: operation.description,
      readOnly: operation.readOnly,
    })),
    runtime: tool.runtime,
    configurable: tool.settingsModel !== null,
    secretInputs: [...tool.secretInputs],
  };
}

/**
 * Tools grouped for the palette: known domains first in their usual order,
 * then any other domain alphabetically; tools keep the order they were given.
 *
 * @example
 *   groupToolsByDomain(allTools()).map((group) => group.title) // ["Files", ..., "Agent Control"]
 */
export function groupToolsByDomain(tools: readonly Tool[]): DomainGroup[] {
  const groups = new Map<string, DomainGroup>();
  for (const tool of tools) {
    let group = groups.get(tool.domain);
    if (!group) {
      const info = domainInfo(tool.domain);
      group = { domain: tool.domain, title: info.title, description: info.description, tools: [] };
      groups.set(tool.domain, group);
    }
    group.tools.push(summarizeTool(tool));
  }
  return [...groups.values()].sort(
    (left, right) => domainRank(left.domain) - domainRank(right.domain) || left.domain.localeCompare(right.domain),
  );
}
