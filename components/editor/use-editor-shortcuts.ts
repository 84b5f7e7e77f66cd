"use client";

import { useEffect } from "react";

function isEditableTarget(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
}

/**
 * The editor's keys, anywhere on the page: Ctrl/⌘+S saves, Ctrl/⌘+K opens Go
 * to node, Ctrl/⌘+Z undoes and Ctrl/⌘+Shift+Z or Ctrl/⌘+Y redoes (except in a
 * text field, where undo belongs to the field).
 */
export function useEditorShortcuts({ save, openGoTo, undo, redo }: { save: () => unknown; openGoTo: () => void; undo: () => void; redo: () => void }): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey) return;
      const key = event.key.toLowerCase();
      if (key === "s") {
        event.preventDefault();
        void save();
        return;
      }
      if (key === "k") {
        event.preventDefault();
        openGoTo();
        return;
      }
      if (isEditableTarget(event.target)) return;
      if (key === "z" && !event.shiftKey) {
        event.preventDefault();
        undo();
      } else if ((key === "z" && event.shiftKey) || key === "y") {
        event.preventDefault();
        redo();
      }
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [save, openGoTo, undo, redo]);
}
