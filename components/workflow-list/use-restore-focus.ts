"use client";

import { useEffect } from "react";

/**
 * Gives focus back to whatever opened a dialog when the dialog goes away, so
 * a keyboard user carries on where they were. When that control is gone too
 * (its row was deleted), `fallback` (say, the page's heading) takes focus.
 */
export function useRestoreFocus(fallback?: () => HTMLElement | null) {
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    return () => {
      // After React has removed the dialog, so focus is not pulled back into it.
      window.setTimeout(() => {
        if (opener?.isConnected) opener.focus();
        else fallback?.()?.focus();
      }, 0);
    };
    // The opener is whatever had focus when the dialog mounted; later renders must not change it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}
