"use client";

import { memo } from "react";
import { describeEvent, type EventTone } from "@/lib/run-view/describe-event";
import { useFormatTime } from "@/components/ui/use-format-time";
import type { RunEvent } from "@/lib/contracts/run-event";

const TONE_DOT: Record<EventTone, string> = {
  neutral: "bg-line-strong",
  progress: "bg-accent",
  good: "bg-safe",
  bad: "bg-caution",
  waiting: "bg-caution ring-2 ring-caution/30",
};

/** Entries shown at once; older ones are summarised, so a long run's page stays quick. */
const VISIBLE = 200;

interface RunTimelineProps {
  events: readonly RunEvent[];
  labelOf: (nodeId: string) => string;
  /** Whether a node id belongs to the canvas (clicking its entry selects it). */
  isNode: (nodeId: string) => boolean;
  onSelect: (nodeId: string) => void;
  selectedNodeId: string | null;
}

/** What happened in the run, newest last, in sentences; an entry about a node opens that node. */
export const RunTimeline = memo(function RunTimeline({ events, labelOf, isNode, onSelect, selectedNodeId }: RunTimelineProps) {
  const formatTime = useFormatTime();
  // Progress repeats a lot; the timeline keeps the events that tell the story, and the last progress line.
  // "Waiting for you" at run level repeats the node's own "waiting for your approval" line.
  const visible = events.filter(
    (event, index) =>
      event.type !== "run-awaiting-input" &&
      (event.type !== "node-progress" || index === events.length - 1 || events[index + 1]?.type !== "node-progress"),
  );
  const shown = visible.slice(-VISIBLE);
  const hidden = visible.length - shown.length;
  if (events.length === 0) return <p className="text-sm text-muted">Nothing has happened yet.</p>;
  return (
    <div>
      {hidden > 0 ? <p className="mb-2 text-xs text-muted">{hidden} earlier entries not shown.</p> : null}
      <ol className="space-y-0.5">
        {shown.map((event) => {
          const description = describeEvent(event, labelOf);
          const nodeId = event.nodeId && isNode(event.nodeId) ? event.nodeId : null;
          const content = (
            <>
              <time dateTime={event.createdAt} title={formatTime(event.createdAt, "exact")} className="min-w-[5.75rem] shrink-0 whitespace-nowrap tabular-nums text-muted" suppressHydrationWarning>
                {formatTime(event.createdAt, "clock")}
              </time>
              <span aria-hidden="true" className={`mt-1.5 size-2 shrink-0 rounded-full ${TONE_DOT[description.tone]}`} />
              <span className="min-w-0 flex-1 [overflow-wrap:anywhere]">
                {description.subject ? (
                  <span className="font-medium text-foreground">
                    {description.subject}
                    {separator(description.text)}
                  </span>
                ) : null}
                <span className={description.tone === "bad" ? "text-caution" : description.subject ? "text-muted" : "font-medium text-foreground"}>
                  {description.subject ? joinSubject(description.text) : description.text}
                </span>
              </span>
            </>
          );
          return (
            <li key={event.seq} data-seq={event.seq}>
              {nodeId ? (
                <button
                  type="button"
                  onClick={() => onSelect(nodeId)}
                  aria-current={nodeId === selectedNodeId ? "true" : undefined}
                  className={`flex w-full items-start gap-3 rounded-md px-2 py-1 text-left text-sm transition-colors hover:bg-surface-sunken ${
                    nodeId === selectedNodeId ? "bg-accent-soft/50" : ""
                  }`}
                >
                  {content}
                </button>
              ) : (
                <div className="flex items-start gap-3 px-2 py-1 text-sm">{content}</div>
              )}
            </li>
          );
        })}
      </ol>
    </div>
  );
});

/** Verbs read on from the label ("Write a File started"); other sentences follow a colon ("Write a File: Approved once by Ada"). */
const VERBS = ["Started", "Succeeded", "Failed:", "Skipped:"];

function joinSubject(text: string): string {
  const first = text.split(" ")[0] ?? "";
  return VERBS.includes(first) ? `${text.charAt(0).toLowerCase()}${text.slice(1)}` : text;
}

function separator(text: string): string {
  const first = text.split(" ")[0] ?? "";
  return VERBS.includes(first) ? " " : ": ";
}
