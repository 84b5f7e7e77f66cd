"use client";

import { useEffect, useRef } from "react";

/**
 * Calls `onChange` when the studio's feed (/api/events) reports a change in
 * runs or approvals, at most once per `throttleMs` (the last change in a
 * burst always gets its call). Also calls it when the feed opens, first time
 * and after a drop: the page's data was read before the feed was listening
 * (rendered on the server, then hydrated), and a change in between would
 * otherwise stay unseen until the next one.
 */
export function useChangeFeed(onChange: () => void, throttleMs = 750): void {
  const callback = useRef(onChange);
  useEffect(() => {
    callback.current = onChange;
  }, [onChange]);

  useEffect(() => {
    let lastCall = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const fire = () => {
      timer = undefined;
      lastCall = Date.now();
      callback.current();
    };
    const schedule = () => {
      if (timer) return;
      const wait = Math.max(0, lastCall + throttleMs - Date.now());
      timer = setTimeout(fire, wait);
    };
    const source = new EventSource("/api/events");
    source.addEventListener("change", schedule);
    // The first message of every connection: catch up with what changed before it.
    source.addEventListener("pending-approvals", schedule);
    return () => {
      source.close();
      if (timer) clearTimeout(timer);
    };
  }, [throttleMs]);
}
