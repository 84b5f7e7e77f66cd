"use client";

import { useEffect, useRef } from "react";

/**
 * Gives focus back to whatever opened a dialog when the dialog goes away, so
 * a keyboard user carries on where they were. When that control is gone too
 * (its row was deleted), `fallback` (say, the page's heading) takes focus.
 */
export function useRestoreFocus(fallback?: () => HTMLElement | null) {
  // What the dialog was opened with: later renders must not change where focus goes back to.
  const fallbackAtOpen = useRef(fallback);
  useEffect(() => {
    const fallbackFocus = fallbackAtOpen.current;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    return () => {
      // After React has removed the dialog, so focus is not pulled back into it.
      window.setTimeout(() => {
        if (opener?.isConnected) opener.focus();
        else fallbackFocus?.()?.focus();
      }, 0);
    };
  }, []);
}
