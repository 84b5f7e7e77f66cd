import { ArgumentList } from "@/components/approvals/argument-list";
import type { ModelPrice } from "@/lib/contracts/model-prices";
import type { AgentActivity, AgentCallView } from "@/lib/run-view/agent-activity";
import { stepUsage } from "@/lib/run-view/run-usage";
import { toolTitle, type ToolTitles } from "@/lib/run-view/tool-titles";
import { UsageCost } from "./usage-text";

/**
 * What an agent step did: the tokens its model calls used and what they cost at today's prices (`prices`: the
 * run's models'), the model's text as it streams in, then each tool call with its arguments, approval and result.
 */
export function AgentActivityView({
  nodeId,
  activity,
  toolTitles,
  live,
  prices,
}: {
  nodeId: string;
  activity: AgentActivity;
  toolTitles: ToolTitles;
  live: boolean;
  prices: readonly ModelPrice[];
}) {
  return (
    <section aria-labelledby={`agent-${nodeId}`} className="space-y-3">
      <div className="flex items-baseline justify-between gap-2">
        <h3 id={`agent-${nodeId}`} className="text-xs font-semibold uppercase tracking-wide text-muted">
          Agent
        </h3>
        {activity.tokens ? <TokenLine tokens={activity.tokens} prices={prices} /> : null}
      </div>
      {activity.text ? (
        <div
          aria-label="The agent's text"
          aria-live={live ? "polite" : undefined}
          className="max-h-72 overflow-auto whitespace-pre-wrap break-words rounded-lg border border-line bg-surface-sunken p-3 text-sm leading-relaxed text-foreground"
        >
          {activity.text}
        </div>
      ) : null}
      {activity.calls.length > 0 ? (
        <ol aria-label="Tool calls" className="space-y-2">
          {activity.calls.map((call) => (
            <CallItem key={call.callId} call={call} toolTitles={toolTitles} />
          ))}
        </ol>
      ) : null}
    </section>
  );
}

/** What its model calls used, as the provider reported them, and what that costs. */
function TokenLine({ tokens, prices }: { tokens: NonNullable<AgentActivity["tokens"]>; prices: readonly ModelPrice[] }) {
  const count = (value: number) => value.toLocaleString("en-US");
  return (
    <p className="text-right text-xs text-muted">
      <span data-testid="agent-tokens">
        {count(tokens.input)} tokens in{tokens.cached > 0 ? ` (${count(tokens.cached)} cached)` : ""}, {count(tokens.output)} out · {tokens.calls}{" "}
        {tokens.calls === 1 ? "model call" : "model calls"}
      </span>{" "}
      · <UsageCost usage={stepUsage(tokens, prices)} className="text-foreground" />
    </p>
  );
}

function CallItem({ call, toolTitles }: { call: AgentCallView; toolTitles: ToolTitles }) {
  const status = call.status === "running" ? "running" : call.status === "failed" ? "returned an error" : "done";
  return (
    <li className="rounded-lg border border-line p-2.5 text-xs">
      <p className="mb-1.5 flex items-center justify-between gap-2">
        <span className="font-semibold text-foreground">{toolTitle(toolTitles, call.tool)}</span>
        <span className={call.status === "failed" ? "text-caution" : "text-muted"}>
          turn {call.turn} · {status}
        </span>
      </p>
      <ArgumentList values={call.arguments} label={`Arguments of ${toolTitle(toolTitles, call.tool)}`} />
      {call.approvals.map((approval) => (
        <p key={approval.id} className="mt-1.5 text-muted">
          Approval ({approval.kind}): {approval.decision ?? "pending"}
          {approval.feedback ? ` — “${approval.feedback}”` : ""}
        </p>
      ))}
      {call.result !== null ? (
        <details className="mt-1.5">
          <summary className={`cursor-pointer py-1 ${call.status === "failed" ? "text-caution" : "text-muted"}`}>{call.result.split("\n")[0]?.slice(0, 160) || "(no text)"}</summary>
          <pre className="mt-1 max-h-64 overflow-auto whitespace-pre-wrap break-words rounded border border-line bg-surface-sunken p-2 font-mono">{call.result}</pre>
        </details>
      ) : null}
    </li>
  );
}
