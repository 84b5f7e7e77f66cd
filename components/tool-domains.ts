/** How the studio presents one palette group of tools. */
export interface DomainInfo {
  /** The `domain` value tools declare. */
  domain: string;
  title: string;
  description: string;
}

/** Known domains, in the order the palette shows them. */
export const KNOWN_DOMAINS: readonly DomainInfo[] = [
  { domain: "filesystem", title: "Files", description: "Read, write, edit and search files in the step's folder." },
  { domain: "data", title: "Data", description: "Inspect and transform data files such as CSV and JSON." },
  { domain: "database", title: "Databases", description: "Connect to SQLite and PostgreSQL, explore schemas and query them." },
  { domain: "system", title: "System", description: "Run commands on this machine." },
  { domain: "web", title: "Web", description: "Fetch pages, call HTTP APIs and search the web." },
  { domain: "code", title: "Code", description: "Compute with JavaScript in a sandbox." },
  { domain: "agent", title: "Agent Control", description: "Talk to the person running the workflow, track steps and finish." },
  { domain: "custom", title: "Custom", description: "Tools written for this studio." },
];

/** The presentation of a domain; an unknown one gets its name in title case. */
export function domainInfo(domain: string): DomainInfo {
  const known = KNOWN_DOMAINS.find((each) => each.domain === domain);
  if (known) return known;
  // An MCP server's tools are grouped under the server's own name.
  // Said as such, so a server named "files" never reads like the built-in Files group.
  if (domain.startsWith("mcp:")) return { domain, title: `${domain.slice(4)} (MCP server)`, description: `Tools of the MCP server ${domain.slice(4)}.` };
  const title = domain
    .split(/[-_\s]+/)
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(" ");
  return { domain, title: title || "Other", description: "" };
}

/** Sort key: known domains in their listed order, then the rest alphabetically. */
export function domainRank(domain: string): number {
  const index = KNOWN_DOMAINS.findIndex((each) => each.domain === domain);
  return index === -1 ? KNOWN_DOMAINS.length : index;
}
