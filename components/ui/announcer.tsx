"use client";

import { useCallback, useEffect, useRef, useState } from "react";

/**
 * A polite live region that says what an action just did ("Added Write a
 * File", "Connected Run inputs to Write a File"), for changes a screen
 * reader would otherwise miss: a card appearing on the canvas moves no focus.
 * The region is in the page from the start (a region added together with its
 * text is not read), empty until the first announcement.
 */
export interface Announcer {
  /** Says `text`; said again when the same words come twice in a row. */
  announce: (text: string) => void;
  /** What the region says now ("" before anything was announced). */
  message: string;
}

export function useAnnouncer(): Announcer {
  const [message, setMessage] = useState("");
  const frame = useRef<number | null>(null);
  const announce = useCallback((text: string) => {
    // A region whose text does not change says nothing: empty it first, then write the words in the next frame.
    setMessage("");
    if (frame.current !== null) window.cancelAnimationFrame(frame.current);
    frame.current = window.requestAnimationFrame(() => {
      frame.current = null;
      setMessage(text);
    });
  }, []);
  useEffect(
    () => () => {
      if (frame.current !== null) window.cancelAnimationFrame(frame.current);
    },
    [],
  );
  return { announce, message };
}

/**
 * The region itself: visually hidden, read out politely. Unnamed on purpose
 * (some screen readers read a live region's name instead of its new text);
 * `testId` finds it in tests.
 */
export function LiveRegion({ message, testId }: { message: string; testId: string }) {
  return (
    <p role="status" aria-live="polite" aria-atomic="true" className="sr-only" data-testid={testId}>
      {message}
    </p>
  );
}
