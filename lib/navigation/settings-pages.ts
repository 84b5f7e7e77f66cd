import type { Scope } from "@/lib/contracts/roles";

/**
 * The pages under Settings in the header, and the scope each needs to open
 * (none: everyone's, such as their own account and browsers). README and help
 * texts name them "Settings → Secrets" and so on. Kept out of the tabs'
 * client module so the server's layout reads the list itself.
 */
export const SETTINGS_PAGES: readonly { href: string; label: string; scope: Scope | null }[] = [
  { href: "/settings/secrets", label: "Secrets", scope: "secret:use" },
  { href: "/settings/mcp", label: "MCP", scope: "mcp:manage" },
  { href: "/settings/people", label: "People", scope: "people:manage" },
  { href: "/settings/security", label: "Security", scope: null },
  { href: "/settings/retention", label: "Data retention", scope: "settings:manage" },
  { href: "/settings/model-prices", label: "Model prices", scope: "settings:manage" },
  { href: "/settings/account", label: "Account", scope: null },
];

/** The Settings pages a person holding `scopes` may open, in tab order. */
export function openSettingsPages(scopes: ReadonlySet<Scope>): { href: string; label: string }[] {
  return SETTINGS_PAGES.filter((page) => page.scope === null || scopes.has(page.scope)).map(({ href, label }) => ({ href, label }));
}
