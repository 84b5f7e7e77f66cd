"use client";

import { useEffect, useRef, useState, type KeyboardEvent, type MouseEvent, type ReactNode } from "react";

const LIST_ID = "editor-more-commands";

/**
 * The editor toolbar's less used commands. From Tailwind's `sm` up they sit
 * in the toolbar's row; on a phone, where that row wrapped to three lines
 * and took a quarter of the screen, they wait in a list that "More" opens
 * below the header. The list shuts on Escape (focus back on More), on a press
 * outside it, and once a command in it was chosen.
 */
export function MoreCommands({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const listRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    listRef.current?.querySelector<HTMLButtonElement>("button:not(:disabled)")?.focus();
    const onPointerDown = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!listRef.current?.contains(target) && !buttonRef.current?.contains(target)) setOpen(false);
    };
    document.addEventListener("pointerdown", onPointerDown);
    return () => document.removeEventListener("pointerdown", onPointerDown);
  }, [open]);

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== "Escape" || !open) return;
    event.preventDefault();
    setOpen(false);
    buttonRef.current?.focus();
  };
  // A command chosen from the list is what it was opened for (its own click handler runs as well).
  const onClick = (event: MouseEvent) => {
    if (open && event.target instanceof Element && event.target.closest("button")) setOpen(false);
  };

  return (
    <>
      <button
        ref={buttonRef}
        type="button"
        aria-expanded={open}
        aria-controls={LIST_ID}
        onClick={() => setOpen((current) => !current)}
        className="inline-flex h-9 items-center rounded-md border border-line-strong bg-surface px-2.5 text-sm font-medium text-foreground hover:bg-surface-sunken sm:hidden"
      >
        More<span className="sr-only"> commands</span>
      </button>
      <div
        id={LIST_ID}
        ref={listRef}
        onKeyDown={onKeyDown}
        onClick={onClick}
        className={`flex flex-wrap items-center gap-1.5 max-sm:absolute max-sm:right-2 max-sm:top-full max-sm:z-30 max-sm:mt-1 max-sm:w-56 max-sm:flex-col max-sm:items-stretch max-sm:rounded-lg max-sm:border max-sm:border-line max-sm:bg-surface max-sm:p-1.5 max-sm:shadow-card-raised max-sm:[&>button]:justify-start ${open ? "" : "max-sm:hidden"}`}
      >
        {children}
      </div>
    </>
  );
}
