"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import type { ReactNode } from "react";

interface NavLinkProps {
  href: string;
  children: ReactNode;
}

/** A top-navigation link that marks itself as the current page. */
export function NavLink({ href, children }: NavLinkProps) {
  const pathname = usePathname();
  const current = href === "/" ? pathname === "/" : pathname === href || pathname.startsWith(`${href}/`);
  return (
    <Link
      href={href}
      aria-current={current ? "page" : undefined}
      className={
        // A full-width row, tall enough for a finger, in the small screens' menu; a compact pill in the wide bar.
        "block rounded-md px-3 py-2.5 text-sm font-medium transition-colors lg:py-1.5 " +
        (current
          ? "bg-accent-soft text-accent"
          : "text-muted hover:bg-surface-sunken hover:text-foreground")
      }
    >
      {children}
    </Link>
  );
}
