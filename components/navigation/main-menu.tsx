"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import { SignOutButton } from "../access/sign-out-button";
import { InboxCount, PendingApprovalsProvider } from "./inbox-count";
import { ROLE_TITLES, type Role } from "@/lib/contracts/roles";

/**
 * The signed-in part of the top bar. On a wide screen the links and Sign out
 * sit in the bar; below the `lg` breakpoint (a phone, or a laptop at 200 %
 * zoom) they would push the page sideways, so they fold into a Menu button
 * that opens them as a list under the bar: Escape or a second press closes
 * it and gives focus back to the button, following a link or pressing
 * outside closes it too. The waiting-approvals count shows on the button
 * while the menu is closed, so a phone still sees that something waits.
 */
export function MainMenu({ person, role, children }: { person: string; role: Role; children: ReactNode }) {
  const pathname = usePathname();
  // Open on the page it was opened on: following a link closes it, with no effect to keep in step.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  const panelId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || event.defaultPrevented) return;
      // Escape in a dialog (the sign-in prompt) closes the dialog, not the menu under it.
      if (event.target instanceof Element && event.target.closest("dialog")) return;
      setOpenOn(null);
      buttonRef.current?.focus();
    };
    const onPointerDown = (event: PointerEvent) => {
      const target = event.target as Node;
      if (panelRef.current?.contains(target) || buttonRef.current?.contains(target)) return;
      setOpenOn(null);
    };
    document.addEventListener("keydown", onKeyDown);
    document.addEventListener("pointerdown", onPointerDown);
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      document.removeEventListener("pointerdown", onPointerDown);
    };
  }, [open]);

  return (
    <PendingApprovalsProvider>
      <div className="ml-auto flex items-center lg:ml-0 lg:flex-1">
        <button
          ref={buttonRef}
          type="button"
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpenOn(open ? null : pathname)}
          className="inline-flex h-10 items-center gap-2 rounded-md border border-line-strong bg-surface px-3 text-sm font-medium text-foreground hover:bg-surface-sunken lg:hidden"
        >
          <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
            {open ? <path d="M6 6l12 12M18 6 6 18" /> : <path d="M4 7h16M4 12h16M4 17h16" />}
          </svg>
          Menu
          {open ? null : <InboxCount />}
        </button>
        <div
          ref={panelRef}
          id={panelId}
          // The link to the page already shown changes no path: close on the press itself.
          onClick={(event) => {
            if (event.target instanceof Element && event.target.closest("a")) setOpenOn(null);
          }}
          className={`${open ? "flex" : "hidden"} absolute inset-x-0 top-full max-h-[calc(100dvh-3.5rem)] flex-col gap-2 overflow-y-auto border-b border-line bg-surface p-3 shadow-card-raised lg:static lg:flex lg:max-h-none lg:flex-1 lg:flex-row lg:items-center lg:gap-6 lg:overflow-visible lg:border-0 lg:bg-transparent lg:p-0 lg:shadow-none`}
        >
          <nav aria-label="Main">
            <ul className="flex flex-col gap-1 lg:flex-row lg:items-center">{children}</ul>
          </nav>
          <div className="flex items-center justify-between gap-2 border-t border-line pt-2 lg:ml-auto lg:border-0 lg:pt-0">
            <span className="flex items-center gap-2 text-sm text-muted" title="Signed in as">
              <Link href="/settings/account" className="rounded-sm hover:text-foreground hover:underline" aria-label={`${person}: your account`}>
                {person}
              </Link>
              <span className="rounded-full bg-surface-sunken px-2 py-0.5 text-xs font-medium text-foreground">{ROLE_TITLES[role]}</span>
            </span>
            <SignOutButton />
          </div>
        </div>
      </div>
    </PendingApprovalsProvider>
  );
}
