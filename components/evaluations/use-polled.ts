"use client";

import { useEffect, useState } from "react";
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
  useEffect(() => {
    if (!live) return;
    let stopped = false;
    const timer = setInterval(() => {
      api<unknown>(path)
        .then((answer) => {
          if (!stopped) setValue(pick(answer));
        })
        // A missed read is read again at the next tick.
        .catch(() => undefined);
    }, POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
    // `pick` is a reading of the answer, the same every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [path, live]);
  return [value, setValue];
}
