"use client";

import { useEffect, useRef } from "react";

/**
 * Calls `onChange` when the studio's feed (/api/events) reports a change in
 * runs or approvals, at most once per `throttleMs` (the last change in a
 * burst always gets its call). Also calls it after a dropped feed comes back,
 * since changes may have been missed meanwhile.
 */
export function useChangeFeed(onChange: () => void, throttleMs = 750): void {
  const callback = useRef(onChange);
  useEffect(() => {
    callback.current = onChange;
  }, [onChange]);

  useEffect(() => {
    let lastCall = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let opened = false;
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
    source.addEventListener("pending-approvals", () => {
      // The first message of every connection; after a reconnect, catch up.
      if (opened) schedule();
      opened = true;
    });
    return () => {
      source.close();
      if (timer) clearTimeout(timer);
    };
  }, [throttleMs]);
}
