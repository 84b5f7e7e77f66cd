"use client";

import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from "react";

/**
 * The editor's side panels, the node palette and the inspector, are fixed
 * columns on a wide screen. Below Tailwind's `lg` breakpoint (64rem: a
 * phone, a tablet, a laptop at 200 % zoom) two fixed columns would leave the
 * canvas no width at all, so there they are drawers over the canvas, one at
 * a time, each opened by a toggle button: opening moves focus into the
 * drawer, Escape or Close shuts it and gives focus back to its toggle.
 */
export type EditorDrawer = "palette" | "inspector";

/** Keep in step with Tailwind's `lg` breakpoint, which the panels' classes use. */
const WIDE_LAYOUT = "(min-width: 64rem)";

function drawerLayout(): boolean {
  return !window.matchMedia(WIDE_LAYOUT).matches;
}

const PANEL_ID: Record<EditorDrawer, string> = { palette: "editor-palette", inspector: "editor-inspector" };

export interface EditorDrawers {
  open: EditorDrawer | null;
  toggle: (drawer: EditorDrawer) => void;
  /** Shuts the drawer and gives focus back to its toggle. */
  close: (drawer: EditorDrawer) => void;
  /** After a drawer did its job (a node added from the palette): shut it, where it is a drawer, to show the canvas. */
  closeAfterUse: (drawer: EditorDrawer) => void;
  /** Opens a drawer where the panels are drawers (a card tapped or Enter pressed on it opens the inspector); nothing on a wide screen, where the panel is always there. */
  openForUse: (drawer: EditorDrawer) => void;
  /** Notes a drawer's toggle button, to give focus back to. */
  registerToggle: (drawer: EditorDrawer, element: HTMLButtonElement | null) => void;
}

export function useEditorDrawers(): EditorDrawers {
  const [open, setOpen] = useState<EditorDrawer | null>(null);
  const toggleRefs = useRef<Partial<Record<EditorDrawer, HTMLButtonElement | null>>>({});
  const toggle = useCallback((drawer: EditorDrawer) => setOpen((current) => (current === drawer ? null : drawer)), []);
  const close = useCallback((drawer: EditorDrawer) => {
    setOpen((current) => (current === drawer ? null : current));
    toggleRefs.current[drawer]?.focus();
  }, []);
  const closeAfterUse = useCallback(
    (drawer: EditorDrawer) => {
      if (drawerLayout()) close(drawer);
    },
    [close],
  );
  const openForUse = useCallback((drawer: EditorDrawer) => {
    if (drawerLayout()) setOpen(drawer);
  }, []);
  const registerToggle = useCallback((drawer: EditorDrawer, element: HTMLButtonElement | null) => {
    toggleRefs.current[drawer] = element;
  }, []);
  return { open, toggle, close, closeAfterUse, openForUse, registerToggle };
}

/** The button that opens and shuts a drawer; shown only where the panels are drawers. */
export function DrawerToggle({ drawers, drawer, children }: { drawers: EditorDrawers; drawer: EditorDrawer; children: ReactNode }) {
  const open = drawers.open === drawer;
  return (
    <button
      ref={(element) => drawers.registerToggle(drawer, element)}
      type="button"
      aria-expanded={open}
      aria-controls={PANEL_ID[drawer]}
      onClick={() => drawers.toggle(drawer)}
      className={`pointer-events-auto inline-flex h-10 items-center gap-1.5 rounded-md border px-3 text-sm font-medium shadow-card-raised ${
        open ? "border-accent bg-accent-soft text-accent" : "border-line-strong bg-surface text-foreground hover:bg-surface-sunken"
      }`}
    >
      {children}
    </button>
  );
}

interface SidePanelProps {
  drawers: EditorDrawers;
  drawer: EditorDrawer;
  side: "left" | "right";
  /** What the drawer is called in its header and its Close button ("the node list"). */
  title: string;
  closeLabel: string;
  /** The landmark's name, when the content does not name itself. */
  label?: string;
  /** Width as a fixed column (Tailwind classes, lg and up). */
  wideWidth: string;
  children: ReactNode;
}

/** A side panel: a fixed column from `lg` up, below it a drawer over the canvas while open and nothing while shut. */
export function SidePanel({ drawers, drawer, side, title, closeLabel, label, wideWidth, children }: SidePanelProps) {
  const open = drawers.open === drawer;
  const closeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (open && drawerLayout()) closeRef.current?.focus();
  }, [open]);
  const onKeyDown = (event: KeyboardEvent) => {
    // A dialog opened from inside the panel (a folder browser) closes itself on Escape; the drawer stays.
    if (event.key !== "Escape" || event.defaultPrevented || !open || !drawerLayout()) return;
    if (event.target instanceof Element && event.target.closest("dialog")) return;
    event.preventDefault();
    drawers.close(drawer);
  };
  const edge = side === "left" ? "left-0 border-r" : "right-0 border-l";
  return (
    <aside
      id={PANEL_ID[drawer]}
      aria-label={label}
      onKeyDown={onKeyDown}
      className={`${open ? "flex" : "hidden"} absolute inset-y-0 ${edge} z-20 w-[min(24rem,calc(100%-3rem))] flex-col border-line bg-surface shadow-card-raised lg:static lg:z-auto lg:flex lg:shrink-0 lg:shadow-none ${wideWidth}`}
    >
      <div className="flex items-center justify-between gap-2 border-b border-line px-3 py-2 lg:hidden">
        <p className="text-sm font-semibold">{title}</p>
        <button
          ref={closeRef}
          type="button"
          onClick={() => drawers.close(drawer)}
          className="inline-flex h-9 items-center rounded-md border border-line-strong px-3 text-sm font-medium text-foreground hover:bg-surface-sunken"
        >
          Close<span className="sr-only"> {closeLabel}</span>
        </button>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto">{children}</div>
    </aside>
  );
}
