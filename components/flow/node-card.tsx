"use client";

import { Handle, Position } from "@xyflow/react";
import { memo } from "react";
import type { CardData } from "@/lib/editor/card-data";
import type { StepViewStatus } from "@/lib/run-view/apply-event";
import { StatusBadge } from "@/components/ui/status-badge";
import { stepStatusWords } from "@/lib/run-view/status-words";
import { ToolIcon } from "@/components/tool-icon";
import { VisibleText } from "@/components/ui/visible-text";
import { ERROR_HANDLE } from "@/lib/contracts/execution-settings";
import { nodeKindDefinitions, type NodeKind } from "@/nodes/definitions";

/**
 * What a canvas card shows, for the editor and the run view alike: the
 * editor's {@link CardData} and the run's progress. Kept to plain data so
 * React Flow can compare it cheaply: a card re-renders only when its own data
 * changes.
 */
export interface NodeCardData extends CardData {
  kind: NodeKind;
  /** Live status in the run view. */
  status?: StepViewStatus;
  /** The reader may not decide what the run waits for: a step waiting for a person waits "for approval", not for them. */
  notForReader?: boolean;
  /** The running tool's progress message. */
  progress?: string;
  /** Where a step's kept result came from, in words: "from run #K8R1T6" (a retry), "from its pin" (a test run). */
  carriedFrom?: string;
  /** The node is in a For each loop's body: in the loop's run it runs per item, not as a step (run view). */
  inLoop?: boolean;
}

/** How a card the Architect's proposal touches is framed and labelled while the proposal is reviewed. */
const PROPOSED_FRAME = { added: "border-safe ring-2 ring-safe/40", changed: "border-accent ring-2 ring-accent/40", removed: "border-danger ring-2 ring-danger/30" } as const;
const PROPOSED_BADGE = { added: "bg-safe text-white dark:text-background", changed: "bg-accent text-accent-foreground", removed: "bg-danger text-white dark:text-background" } as const;
const PROPOSED_LABEL = { added: "New", changed: "Changed", removed: "Removed" } as const;

/*
 * The dots are for dragging only, so they are hidden from screen readers: the
 * keyboard connects through the inspector's Connections section. Their title
 * tells a pointer what each one is.
 */
function NodeCardView({ data, selected }: { data: NodeCardData; selected?: boolean }) {
  const outputs = data.outputs ?? [];
  const problems = data.problems ?? 0;
  // The frame is the same for every kind; what differs (title, subtitle, handles) arrives in `data`.
  const kind = nodeKindDefinitions[data.kind];
  const proposed = data.proposed;
  return (
    <div
      className={`w-60 rounded-lg border bg-surface text-left shadow-card transition-shadow ${
        proposed ? PROPOSED_FRAME[proposed.change] : selected ? "border-accent ring-2 ring-accent/40" : problems > 0 ? "border-caution" : data.pinned ? "border-accent" : "border-line-control"
      } ${proposed && !proposed.accepted ? "border-dashed opacity-50" : ""}`}
      data-testid={`node-card-${data.title}`}
      data-proposed={proposed ? `${proposed.change}${proposed.accepted ? "" : " unticked"}` : undefined}
    >
      {data.hasInput !== false ? (
        <Handle type="target" position={Position.Left} title={`Input of ${data.title}`} aria-hidden="true" className="!size-3 !border-2 !border-surface !bg-muted" />
      ) : null}
      <div className="flex items-start gap-2.5 px-3 py-2.5">
        <span className="mt-0.5 flex size-7 shrink-0 items-center justify-center rounded-md bg-accent-soft text-accent">
          <ToolIcon icon={data.icon ?? kind.icon} domain={data.domain} className="size-4" />
        </span>
        <div className="min-w-0 flex-1">
          <p className="flex items-center justify-between gap-2 text-[0.6875rem] font-medium uppercase tracking-wide text-muted">
            {kind.title}
            {proposed ? (
              // The card's name says it (lib/flow/card-name.ts); the mark is for the eye.
              <span aria-hidden="true" className={`rounded px-1 text-[0.625rem] font-semibold normal-case tracking-normal ${PROPOSED_BADGE[proposed.change]}`}>
                {PROPOSED_LABEL[proposed.change]}
              </span>
            ) : null}
            {data.pinned ? (
              // The card's name says "output pinned" (lib/flow/card-name.ts); the mark is for the eye.
              <span
                aria-hidden="true"
                title="Output pinned: test runs from the editor use the pin instead of running this step"
                className="rounded bg-accent px-1 text-[0.625rem] font-semibold normal-case tracking-normal text-accent-foreground"
                data-testid="pinned-mark"
              >
                Pinned
              </span>
            ) : null}
          </p>
          {/* Titles are written by people, and by the Architect's model: hidden characters are shown, as everywhere. */}
          <p className={`truncate text-sm font-semibold text-foreground ${proposed?.change === "removed" && proposed.accepted ? "line-through" : ""}`}>
            <VisibleText text={data.title} />
          </p>
          {data.subtitle ? <p className="truncate text-xs text-muted">{data.subtitle}</p> : null}
        </div>
        {problems > 0 ? (
          <span
            title={data.problemText}
            // The card's name already says how many (lib/flow/card-name.ts); aria-label on a role-less span is not allowed.
            aria-hidden="true"
            className="flex size-5 shrink-0 items-center justify-center rounded-full bg-caution text-[0.6875rem] font-bold text-white dark:text-background"
          >
            {problems}
          </span>
        ) : null}
      </div>
      {data.status ? (
        // A kept step's "from run #…" goes onto a line of its own when it does not fit beside the badge.
        <div className={`flex items-center gap-x-2 gap-y-0.5 border-t border-line px-3 py-1.5 ${data.carriedFrom ? "flex-wrap" : ""}`}>
          <StatusBadge status={data.status} words={stepStatusWords(data.status, data.kind, { inLoop: data.inLoop === true, forYou: data.notForReader !== true })} />
          {data.progress && (data.status === "running" || data.status === "retrying" || data.status === "waiting") ? <span className="truncate text-xs text-muted">{data.progress}</span> : null}
          {data.carriedFrom && data.status === "succeeded" ? <span className="whitespace-nowrap text-xs text-muted">{data.carriedFrom}</span> : null}
        </div>
      ) : null}
      {outputs.length > 0 ? (
        <div className="space-y-1 border-t border-line px-3 py-1.5">
          {outputs.map((output) => (
            <div key={output.id} className="relative text-right text-xs text-muted">
              {output.label}
              <Handle
                id={output.id}
                type="source"
                position={Position.Right}
                title={`Output ${output.label} of ${data.title}`}
                aria-hidden="true"
                className="!-right-[13px] !size-3 !border-2 !border-surface !bg-accent"
              />
            </div>
          ))}
        </div>
      ) : data.hasOutput !== false ? (
        <Handle type="source" position={Position.Right} title={`Output of ${data.title}`} aria-hidden="true" className="!size-3 !border-2 !border-surface !bg-accent" />
      ) : null}
      {data.errorHandle ? (
        <div className="relative border-t border-line px-3 py-1.5 text-right text-xs font-medium text-danger">
          on error
          {/* 24 px to grab (WCAG 2.5.8), drawn as a red dot; the edges it starts are dashed and red. */}
          <Handle
            id={ERROR_HANDLE}
            type="source"
            position={Position.Right}
            title={`Error path of ${data.title}`}
            aria-hidden="true"
            className="!flex !size-6 !items-center !justify-center !rounded-full !border-0 !bg-transparent"
          >
            <span aria-hidden="true" className="pointer-events-none size-3 rounded-full border-2 border-surface bg-danger" />
          </Handle>
        </div>
      ) : null}
    </div>
  );
}

/** The one node component of every canvas, memoised: it re-renders only when its data or selection changes. */
export const NodeCard = memo(NodeCardView);
