"use client";

import { VisibleText } from "@/components/ui/visible-text";
import type { DraftOutline } from "@/lib/editor/draft-outline";

/** The plan's steps and the nodes of an answer, as far as they have arrived. */
export function DraftOutlineView({ outline, streaming }: { outline: DraftOutline; streaming: boolean }) {
  if (outline.plan.length === 0 && outline.nodes.length === 0) {
    return streaming ? <p className="text-xs text-muted">The model is thinking; its plan appears here as it writes it.</p> : null;
  }
  return (
    <div className="space-y-3" aria-busy={streaming}>
      {outline.name ? (
        <p className="text-sm font-semibold">
          <VisibleText text={outline.name} />
        </p>
      ) : null}
      {outline.plan.length > 0 ? (
        <div>
          <h4 className="text-xs font-semibold uppercase tracking-wide text-muted">Plan</h4>
          <ol className="mt-1 list-decimal space-y-1.5 pl-5 text-sm" aria-label="The plan">
            {outline.plan.map((step, index) => (
              <li key={index}>
                <VisibleText text={step.step} />
                {step.capability ? <span className="ml-1.5 rounded bg-surface-sunken px-1 font-mono text-[0.6875rem] text-muted">{step.capability}</span> : null}
                {step.reason ? (
                  <p className="text-xs text-muted">
                    <VisibleText text={step.reason} />
                  </p>
                ) : null}
              </li>
            ))}
          </ol>
        </div>
      ) : null}
      {outline.nodes.length > 0 ? (
        <div>
          <h4 className="text-xs font-semibold uppercase tracking-wide text-muted">Steps</h4>
          <ul className="mt-1 space-y-1 text-sm" aria-label="The draft's steps">
            {outline.nodes.map((node) => (
              <li key={node.id} className="flex items-baseline gap-2">
                <span className="font-mono text-xs text-muted">
                  <VisibleText text={node.id} />
                </span>
                <span className="min-w-0 truncate">{node.label ? <VisibleText text={node.label} /> : node.what}</span>
                {node.label ? <span className="truncate text-xs text-muted">{node.what}</span> : null}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
