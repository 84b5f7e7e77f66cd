"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

/**
 * The tabs along the top of every Settings page, as n8n's settings list its sections: those the person may open
 * (lib/navigation/settings-pages.ts); a page opened by its address without the scope says what it needs.
 */
export function SettingsTabs({ pages }: { pages: readonly { href: string; label: string }[] }) {
  const pathname = usePathname();
  return (
    <nav aria-label="Settings" className="mb-8 flex flex-wrap items-center gap-x-4 gap-y-2 border-b border-line">
      <span className="text-xs font-semibold uppercase tracking-wide text-muted">Settings</span>
      <ul className="flex flex-wrap gap-1">
        {pages.map((page) => {
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
