"use client";

import { useEffect, useRef, useState } from "react";
import { api } from "@/lib/client/api";

/** How often a page with a running evaluation reads it again. */
const POLL_MS = 1_500;

/**
 * `initial`, read again from `path` every moment while `running` says it still changes, so progress and verdicts
 * show as rows end; nothing is fetched once it has ended.
 */
export function usePolled<Value>(path: string, initial: Value, pick: (answer: unknown) => Value, running: (value: Value) => boolean): [Value, (value: Value) => void] {
  const [value, setValue] = useState(initial);
  const live = running(value);
  // The newest reading of the answer, without restarting the timer when a caller passes a new function each render.
  const latestPick = useRef(pick);
  useEffect(() => {
    latestPick.current = pick;
  });
  useEffect(() => {
    if (!live) return;
    let stopped = false;
    const timer = setInterval(() => {
      api<unknown>(path)
        .then((answer) => {
          if (!stopped) setValue(latestPick.current(answer));
        })
        // A missed read is read again at the next tick.
        .catch(() => undefined);
    }, POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [path, live]);
  return [value, setValue];
}
