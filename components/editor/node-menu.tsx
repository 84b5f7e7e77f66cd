"use client";

import { useEffect, useRef, type KeyboardEvent } from "react";
import { useTestRuns, type TestMode } from "./test-runs";

export interface NodeMenuTarget {
  nodeId: string;
  title: string;
  /** Where to open, relative to the canvas's box. */
  x: number;
  y: number;
  /** The run inputs and triggers are not tested on their own. */
  testable: boolean;
}

interface NodeMenuProps {
  target: NodeMenuTarget;
  onClose: () => void;
  /** Shows the node in the inspector, where the test's result appears. */
  onSelect: (nodeId: string) => void;
}

/**
 * A card's menu (right click, or the context-menu key on a focused card):
 * Run this step, Run up to here and Unpin, the same actions as the
 * inspector's Test this step, whose result then shows in the inspector.
 */
export function NodeMenu({ target, onClose, onSelect }: NodeMenuProps) {
  const testRuns = useTestRuns();
  const menu = useRef<HTMLDivElement>(null);
  useEffect(() => {
    menu.current?.querySelector<HTMLElement>("[role=menuitem]")?.focus();
    const close = (event: PointerEvent) => {
      if (!menu.current?.contains(event.target as Node)) onClose();
    };
    window.addEventListener("pointerdown", close);
    return () => window.removeEventListener("pointerdown", close);
  }, [onClose]);
  if (!testRuns) return null;
  const pinned = testRuns.pins.has(target.nodeId);

  const test = (mode: TestMode) => {
    onSelect(target.nodeId);
    onClose();
    void testRuns.start(target.nodeId, mode, {});
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const items = [...(menu.current?.querySelectorAll<HTMLElement>("[role=menuitem]") ?? [])];
    const at = items.indexOf(document.activeElement as HTMLElement);
    if (event.key === "Escape") {
      event.preventDefault();
      onClose();
    } else if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      const next = (at + (event.key === "ArrowDown" ? 1 : items.length - 1)) % items.length;
      items[next]?.focus();
    }
  };
  const item = "block w-full px-3 py-1.5 text-left text-sm text-foreground hover:bg-surface-sunken focus-visible:bg-surface-sunken focus-visible:outline-none";

  return (
    <div
      ref={menu}
      role="menu"
      aria-label={`${target.title}: actions`}
      onKeyDown={onKeyDown}
      className="absolute z-20 min-w-48 rounded-lg border border-line bg-surface py-1 shadow-card-raised"
      style={{ left: target.x, top: target.y }}
    >
      {target.testable ? (
        <>
          <button type="button" role="menuitem" className={item} onClick={() => test("step")}>
            Run this step
          </button>
          <button type="button" role="menuitem" className={item} onClick={() => test("up-to")}>
            Run up to here
          </button>
        </>
      ) : null}
      {pinned ? (
        <button
          type="button"
          role="menuitem"
          className={item}
          onClick={() => {
            onClose();
            void testRuns.unpin(target.nodeId);
          }}
        >
          Unpin its output
        </button>
      ) : null}
      <button
        type="button"
        role="menuitem"
        className={item}
        onClick={() => {
          onSelect(target.nodeId);
          onClose();
        }}
      >
        Open in the inspector
      </button>
    </div>
  );
}
