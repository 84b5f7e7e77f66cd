"use client";

import { useEffect, useRef, useState } from "react";
import { readRunEvent, RUN_EVENT_TYPES, type RunEvent } from "@/lib/contracts/run-event";

/** `connecting`: the first connection is on its way; `reconnecting`: one was made (or refused) and is being made again. */
export type StreamConnection = "connecting" | "live" | "reconnecting" | "closed";

/** Waits before reconnecting after the stream was refused or broke: 1 s, doubling to 30 s. */
const FIRST_RETRY_MS = 1_000;
const LONGEST_RETRY_MS = 30_000;

/**
 * A run's events as they happen, from `after` on: one EventSource for the
 * page's life (the browser reconnects it by itself with Last-Event-ID), a new
 * one only when the browser gives up, then from the last event applied,
 * never from an older position, with backoff. Every type of the contract is
 * listened to; an event of a type this page does not know only moves the
 * position on. Events are handed over in batches, once per animation frame,
 * so a chatty agent does not re-render the page per word. Closes for good at
 * the stream's `end`.
 */
export function useRunEventStream(runId: string, after: number, enabled: boolean, onEvents: (events: RunEvent[]) => void): StreamConnection {
  const [connection, setConnection] = useState<StreamConnection>(enabled ? "connecting" : "closed");
  const deliver = useRef(onEvents);
  // Where the page's snapshot ends; after that, the stream itself says where it is.
  const start = useRef(after);
  useEffect(() => {
    deliver.current = onEvents;
  }, [onEvents]);

  useEffect(() => {
    if (!enabled) return;
    let position = start.current;
    let source: EventSource | null = null;
    let queue: RunEvent[] = [];
    let frame: number | null = null;
    let retry: ReturnType<typeof setTimeout> | null = null;
    let retryDelay = FIRST_RETRY_MS;
    let stopped = false;

    const flush = () => {
      frame = null;
      const events = queue;
      queue = [];
      if (events.length > 0) deliver.current(events);
    };
    const receive = (message: MessageEvent<string>) => {
      const event = readRunEvent(message.data);
      if (event === null || event === "unknown") return;
      if (event.seq <= position) return;
      position = event.seq;
      queue.push(event);
      frame ??= requestAnimationFrame(flush);
    };
    const stop = () => {
      stopped = true;
      source?.close();
      if (retry !== null) clearTimeout(retry);
      if (frame !== null) cancelAnimationFrame(frame);
      flush();
    };
    const connect = () => {
      source = new EventSource(`/api/runs/${encodeURIComponent(runId)}/events?after=${position}`);
      source.onopen = () => {
        retryDelay = FIRST_RETRY_MS;
        setConnection("live");
      };
      source.onerror = () => {
        if (stopped) return;
        setConnection("reconnecting");
        // CONNECTING: the browser retries by itself. CLOSED: it gave up (a refused answer); try again later, from where we are.
        if (source?.readyState === EventSource.CLOSED) {
          source.close();
          retry = setTimeout(connect, retryDelay);
          retryDelay = Math.min(retryDelay * 2, LONGEST_RETRY_MS);
        }
      };
      for (const type of RUN_EVENT_TYPES) source.addEventListener(type, receive);
      source.addEventListener("end", () => {
        stop();
        setConnection("closed");
      });
    };
    connect();
    return stop;
  }, [runId, enabled]);

  return enabled ? connection : "closed";
}
