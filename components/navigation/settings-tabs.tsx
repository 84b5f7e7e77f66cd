"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

/** The pages under Settings in the header; README and help texts name them "Settings → Secrets" and so on. */
export const SETTINGS_PAGES = [
  { href: "/settings/secrets", label: "Secrets" },
  { href: "/settings/mcp", label: "MCP" },
  { href: "/settings/people", label: "People" },
  { href: "/settings/security", label: "Security" },
  { href: "/settings/retention", label: "Data retention" },
  { href: "/settings/account", label: "Account" },
] as const;

/** The tabs along the top of every Settings page, as n8n's settings list its sections. */
export function SettingsTabs() {
  const pathname = usePathname();
  return (
    <nav aria-label="Settings" className="mb-8 flex flex-wrap items-center gap-x-4 gap-y-2 border-b border-line">
      <span className="text-xs font-semibold uppercase tracking-wide text-muted">Settings</span>
      <ul className="flex flex-wrap gap-1">
        {SETTINGS_PAGES.map((page) => {
          const current = pathname === page.href || pathname.startsWith(`${page.href}/`);
          return (
            <li key={page.href}>
              <Link
                href={page.href}
                aria-current={current ? "page" : undefined}
                className={`-mb-px inline-block border-b-2 px-3 py-2 text-sm font-medium ${current ? "border-accent text-accent" : "border-transparent text-muted hover:text-foreground"}`}
              >
                {page.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
