import { argumentMarking } from "@/lib/run-view/hidden-characters";
import { cellText } from "@/lib/run-view/result-tables";
import { argumentChanges } from "@/lib/tools/contracts";
import { VisibleText } from "@/components/ui/visible-text";

/**
 * What the step proposed and what the person approved instead, field by
 * field (or the plan, line by line): shown on the card and in the run view
 * once a call was approved with an edit. Values are marked as every
 * argument is (hidden characters as ⟨…⟩, in stored order), so an edit
 * cannot hide anything either.
 */
export function ArgumentEditDiff({ proposed, approved }: { proposed: Record<string, unknown>; approved: Record<string, unknown> }) {
  const changes = argumentChanges(proposed, approved);
  if (changes.length === 0) return null;
  return (
    <div role="group" aria-label="Edited before approval" className="space-y-2 rounded-lg border border-accent/40 bg-accent-soft/40 px-3 py-2.5">
      <p className="text-xs font-medium text-foreground">Edited before approval: the step proposed one thing, the person approved another.</p>
      <dl className="space-y-2 text-xs">
        {changes.map((change) => (
          <div key={change.field} className="space-y-1">
            <dt className="font-mono text-muted">
              <VisibleText text={change.field} />
            </dt>
            <dd className="m-0">
              <DiffLine sign="−" label="Proposed" value={change.from} tone="removed" />
              <DiffLine sign="+" label="Approved" value={change.to} tone="added" />
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

function DiffLine({ sign, label, value, tone }: { sign: string; label: string; value: unknown; tone: "added" | "removed" }) {
  const text = value === undefined ? "" : cellText(value);
  const colours = tone === "added" ? "bg-safe-soft text-foreground" : "bg-caution-soft text-foreground";
  return (
    <p className={`flex gap-2 rounded px-2 py-1 font-mono whitespace-pre-wrap [overflow-wrap:anywhere] [direction:ltr] [unicode-bidi:bidi-override] ${colours}`} data-diff={tone}>
      <span aria-hidden="true" className="select-none text-muted">
        {sign}
      </span>
      <span className="sr-only">{label}: </span>
      <span className="min-w-0">{value === undefined ? <span className="font-sans text-muted">(not set)</span> : <VisibleText text={text} options={argumentMarking(text)} />}</span>
    </p>
  );
}
