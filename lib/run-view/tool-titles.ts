import type { CatalogTool } from "@/lib/contracts/catalog";

/** What the run view and the inbox need to name a tool and its operation: titles, never raw names. */
export interface ToolTitle {
  title: string;
  icon: string | null;
  domain: string;
  /** Operation name → its title. */
  operations: Record<string, string>;
  /** Inputs that hold secrets: shown masked unless they are `${NAME}` references. */
  secretInputs: string[];
}

export type ToolTitles = Record<string, ToolTitle>;

/** A compact map of the catalog, small enough to hand to the browser. */
export function toolTitlesOf(
  tools: readonly (Pick<CatalogTool, "name" | "title" | "icon" | "domain"> & {
    operations: readonly { name: string; title: string }[];
    secretInputs?: readonly (string | { name: string })[];
  })[],
): ToolTitles {
  const titles: ToolTitles = {};
  for (const tool of tools) {
    titles[tool.name] = {
      title: tool.title,
      icon: tool.icon,
      domain: tool.domain,
      operations: Object.fromEntries(tool.operations.map((operation) => [operation.name, operation.title])),
      secretInputs: (tool.secretInputs ?? []).map((input) => (typeof input === "string" ? input : input.name)),
    };
  }
  return titles;
}

/** The tool's title; an unknown tool (removed since, or an MCP server that is off) by a readable form of its name. */
export function toolTitle(titles: ToolTitles, tool: string | null): string {
  if (!tool) return "The run";
  return titles[tool]?.title ?? humanise(tool);
}

export function operationTitle(titles: ToolTitles, tool: string | null, operation: string | null): string | null {
  if (!tool || !operation) return null;
  return titles[tool]?.operations[operation] ?? humanise(operation);
}

/** "write_file" → "Write file": only for names the catalog does not know. */
function humanise(name: string): string {
  const words = name.replace(/[_-]+/g, " ").replace(/([a-z])([A-Z])/g, "$1 $2").trim().toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The same map from the tool objects themselves (server side), without building their JSON schemas. */
export function toolTitlesFromTools(
  tools: readonly {
    name: string;
    title: string;
    icon: string | null;
    domain: string;
    operations: Readonly<Record<string, { title: string }>> | null;
    secretInputs: readonly string[];
  }[],
): ToolTitles {
  return toolTitlesOf(
    tools.map((tool) => ({
      name: tool.name,
      title: tool.title,
      icon: tool.icon,
      domain: tool.domain,
      operations: Object.entries(tool.operations ?? {}).map(([name, operation]) => ({ name, title: operation.title })),
      secretInputs: tool.secretInputs,
    })),
  );
}

const SECRET_REFERENCE = /^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/;

/** Arguments with literal secret values hidden (`${NAME}` references stay: they name a stored secret, not its value). */
export function maskSecrets(titles: ToolTitles, tool: string | null, args: Record<string, unknown>): Record<string, unknown> {
  const secrets = tool ? (titles[tool]?.secretInputs ?? []) : [];
  if (secrets.length === 0) return args;
  const masked = { ...args };
  for (const name of secrets) {
    const value = masked[name];
    if (typeof value === "string" && value !== "" && !SECRET_REFERENCE.test(value.trim())) masked[name] = "••••••••";
  }
  return masked;
}
