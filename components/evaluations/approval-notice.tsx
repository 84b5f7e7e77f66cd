import type { EvaluationPreflight } from "@/lib/contracts/evaluation";

/**
 * What the evaluation form says before a start about people: an evaluation's runs pass the same gates as any run,
 * so a step that asks for approval asks in every row (and waits in the inbox); a pinned one keeps its pin instead.
 * And why a version cannot be evaluated at all.
 */
export function ApprovalNotice({ preflight }: { preflight: EvaluationPreflight | null }) {
  if (!preflight) return null;
  const names = (steps: EvaluationPreflight["asks"]) => steps.map((step) => step.title).join(", ");
  return (
    <>
      {preflight.refusal ? (
        <div role="alert" className="rounded-lg border border-caution/40 bg-caution-soft px-4 py-3 text-sm text-caution">
          {preflight.refusal}
        </div>
      ) : null}
      {preflight.asks.length > 0 ? (
        <div role="note" className="rounded-lg border border-caution/40 bg-caution-soft px-4 py-3 text-sm" data-testid="approval-notice">
          <p className="font-semibold text-caution">Steps of version {preflight.version} ask for approval in every row</p>
          <p className="mt-1 text-foreground">
            {names(preflight.asks)} {preflight.asks.length === 1 ? "asks" : "ask"} a person before acting, as in any run: each row&apos;s run waits in the inbox until
            someone decides. Pin {preflight.asks.length === 1 ? "its" : "their"} output in the editor to have an evaluation keep the pin instead.
          </p>
        </div>
      ) : null}
      {preflight.pinned.length > 0 ? (
        <p className="text-sm text-muted" data-testid="pinned-notice">
          Kept from their pins in every row, not run: {names(preflight.pinned)}.
        </p>
      ) : null}
    </>
  );
}
