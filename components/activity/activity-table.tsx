import { tokensDetail, tokensText, UsageCost } from "@/components/runs/usage-text";
import type { WorkflowActivity } from "@/lib/contracts/workflow-activity";
import { formatDuration } from "@/lib/run-view/format-time";

/** The columns after the day, in order: numbers, so right-aligned, each but the last with a gap to its right. */
const FIGURES = ["Runs", "Succeeded", "Failed", "Median duration", "Tokens", "Cost"];

/**
 * The activity's figures day by day, newest first: the charts' text
 * alternative (and what to copy from). Collapsed by default; the days without
 * runs are left out, said so in the caption.
 */
export function ActivityTable({ activity, shortDay }: { activity: WorkflowActivity; shortDay: (day: string) => string }) {
  const busy = activity.days.filter((day) => day.runs > 0 || day.usage.calls > 0).reverse();
  const quiet = activity.days.length - busy.length;
  return (
    <details className="rounded-xl border border-line bg-surface p-4 shadow-card" data-testid="activity-table">
      <summary className="cursor-pointer text-sm font-semibold">The figures as a table</summary>
      <table className="mt-3 w-full text-sm">
        <caption className="mb-2 text-left text-xs text-muted">
          {busy.length === 0 ? "No runs in this period." : `Days with runs, newest first${quiet > 0 ? `; the other ${quiet} had none` : ""}. Cost at today's prices.`}
        </caption>
        <thead className="text-left text-xs uppercase tracking-wide text-muted">
          <tr>
            <th scope="col" className="py-1.5 pr-3">Day</th>
            {FIGURES.map((figure, index) => (
              <th key={figure} scope="col" className={index < FIGURES.length - 1 ? "py-1.5 pr-3 text-right" : "py-1.5 text-right"}>
                {figure}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-line tabular-nums">
          {busy.map((day) => (
            <tr key={day.day}>
              <th scope="row" className="py-1.5 pr-3 text-left font-normal">
                <time dateTime={day.day}>{shortDay(day.day)}</time>
              </th>
              <td className="py-1.5 pr-3 text-right">{day.runs}</td>
              <td className="py-1.5 pr-3 text-right">{day.succeeded}</td>
              <td className="py-1.5 pr-3 text-right">{day.failed}</td>
              <td className="py-1.5 pr-3 text-right">{day.medianDurationMs === null ? "—" : formatDuration(day.medianDurationMs)}</td>
              <td className="py-1.5 pr-3 text-right" title={day.usage.calls > 0 ? tokensDetail(day.usage) : undefined}>
                {tokensText(day.usage)}
              </td>
              <td className="py-1.5 text-right">
                <UsageCost usage={day.usage} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
