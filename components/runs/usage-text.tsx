import Link from "next/link";
import type { UsageSummary } from "@/lib/contracts/usage";
import { formatCost, formatTokenCount } from "@/lib/cost/format-cost";

/** Where prices are set: a model without one links there. */
export const MODEL_PRICES_HREF = "/settings/model-prices";

/** All tokens in and out, shortened ("1.2 M"); a dash when no model was called. */
export function tokensText(usage: Pick<UsageSummary, "inputTokens" | "outputTokens" | "calls">): string {
  return usage.calls === 0 && usage.inputTokens + usage.outputTokens === 0 ? "—" : formatTokenCount(usage.inputTokens + usage.outputTokens);
}

/** The tokens in words, for a title or a screen reader: "1,200 in (1,000 cached), 85 out · 2 model calls". */
export function tokensDetail(usage: Pick<UsageSummary, "inputTokens" | "cachedInputTokens" | "outputTokens" | "calls">): string {
  const number = (value: number) => value.toLocaleString("en-US");
  const cached = usage.cachedInputTokens > 0 ? ` (${number(usage.cachedInputTokens)} cached)` : "";
  return `${number(usage.inputTokens)} in${cached}, ${number(usage.outputTokens)} out · ${usage.calls} model ${usage.calls === 1 ? "call" : "calls"}`;
}

/**
 * What the tokens cost at today's prices: "$3.41"; with models left unpriced,
 * "$3.41 + no price for gpt-x"; with none priced, "no price set" linking to
 * Settings → Model prices; a dash when no model was called. Never a guess.
 */
export function UsageCost({ usage, className = "" }: { usage: UsageSummary; className?: string }) {
  if (usage.calls === 0 && usage.costMicros === null) return <span className={`text-muted ${className}`}>—</span>;
  const unpriced = usage.unpricedModels.map((model) => model.model).join(", ");
  const noPrice = (text: string) => (
    <Link href={MODEL_PRICES_HREF} className="text-muted underline decoration-dotted underline-offset-4 hover:text-accent" title={`Set a price for ${unpriced} in Settings → Model prices`}>
      {text}
    </Link>
  );
  if (usage.costMicros === null) return <span className={className}>{noPrice("no price set")}</span>;
  return (
    <span className={`tabular-nums ${className}`} title="At today's prices (Settings → Model prices)">
      {formatCost(usage.costMicros)}
      {usage.unpricedModels.length > 0 ? <> + {noPrice(`no price for ${unpriced}`)}</> : null}
    </span>
  );
}
