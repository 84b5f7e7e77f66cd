"use client";

import type { ReactNode } from "react";
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { MODEL_PRICES_HREF, tokensText, UsageCost } from "@/components/runs/usage-text";
import type { WorkflowActivity } from "@/lib/contracts/workflow-activity";
import { formatCost } from "@/lib/cost/format-cost";
import { formatDuration } from "@/lib/run-view/format-time";
import { ActivityTable } from "./activity-table";

/** Colours of the studio's theme (app/globals.css), so the charts follow light and dark. */
const COLOURS = { succeeded: "var(--color-safe)", failed: "var(--color-caution)", other: "var(--color-line-strong)", duration: "var(--color-accent)", cost: "var(--color-accent)" };
const AXIS = { fontSize: 11, fill: "var(--color-muted)" };
const CHART_HEIGHT = 180;

/** "2026-12-05" -> "Dec 5" (the day is UTC, and so is its label). */
function shortDay(day: string): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString("en-US", { month: "short", day: "numeric", timeZone: "UTC" });
}

/**
 * A workflow's activity over its period: a line of totals, then three charts
 * (runs per day by outcome, the median duration, the cost) and the same
 * figures as a table, the charts' text alternative. The charts draw what the
 * server counted (lib/persistence/workflow-activity.ts); nothing is summed here
 * but what the server already summed.
 */
export function WorkflowActivityView({ activity }: { activity: WorkflowActivity }) {
  const rows = activity.days.map((day) => ({
    label: shortDay(day.day),
    succeeded: day.succeeded,
    failed: day.failed,
    other: day.runs - day.succeeded - day.failed,
    medianMs: day.medianDurationMs,
    // Dollars for the axis only; the tooltip and the table show the exact figure (formatCost of whole micro-dollars).
    cost: day.usage.costMicros === null ? 0 : day.usage.costMicros / 1_000_000,
    costMicros: day.usage.costMicros,
  }));
  const { total } = activity;
  const anyCost = activity.days.some((day) => day.usage.calls > 0);
  const summary = `${total.runs} ${total.runs === 1 ? "run" : "runs"}, ${total.succeeded} succeeded, ${total.failed} failed`;
  return (
    <div className="space-y-6">
      <p className="text-sm" data-testid="activity-summary">
        <span className="font-medium">{summary}</span>
        {total.usage.calls > 0 ? (
          <>
            {" "}
            · {tokensText(total.usage)} tokens · <UsageCost usage={total.usage} className="font-medium" /> at today&rsquo;s prices
          </>
        ) : null}
      </p>
      <div className="grid gap-4 lg:grid-cols-3">
        <ChartCard title="Runs per day" description={`Succeeded, failed and other (running, waiting, cancelled) runs per day: ${summary}.`}>
          <BarChart data={rows} margin={{ top: 8, right: 8, bottom: 0, left: -16 }} accessibilityLayer={false}>
            <CartesianGrid strokeDasharray="3 3" stroke="var(--color-line)" vertical={false} />
            <XAxis dataKey="label" tick={AXIS} interval="preserveStartEnd" minTickGap={16} />
            <YAxis allowDecimals={false} tick={AXIS} />
            <Tooltip cursor={{ fill: "var(--color-surface-sunken)" }} />
            {/* The labels in the text colour: a pale series colour would be text too faint to read. */}
            <Legend wrapperStyle={{ fontSize: 11 }} formatter={(value: string) => <span className="text-foreground">{value}</span>} />
            <Bar dataKey="succeeded" name="Succeeded" stackId="runs" fill={COLOURS.succeeded} isAnimationActive={false} />
            <Bar dataKey="failed" name="Failed" stackId="runs" fill={COLOURS.failed} isAnimationActive={false} />
            <Bar dataKey="other" name="Other" stackId="runs" fill={COLOURS.other} isAnimationActive={false} />
          </BarChart>
        </ChartCard>
        <ChartCard title="Median duration" description="The median time from start to finish of each day's finished runs; days without finished runs have no point.">
          <LineChart data={rows} margin={{ top: 8, right: 8, bottom: 0, left: 0 }} accessibilityLayer={false}>
            <CartesianGrid strokeDasharray="3 3" stroke="var(--color-line)" vertical={false} />
            <XAxis dataKey="label" tick={AXIS} interval="preserveStartEnd" minTickGap={16} />
            <YAxis tick={AXIS} width={68} tickFormatter={(value: number) => formatDuration(value)} />
            <Tooltip formatter={(value) => (typeof value === "number" ? formatDuration(value) : String(value))} />
            <Line type="monotone" dataKey="medianMs" name="Median" stroke={COLOURS.duration} strokeWidth={2} dot={{ r: 2 }} connectNulls isAnimationActive={false} />
          </LineChart>
        </ChartCard>
        <ChartCard
          title="Cost per day"
          description="What each day's model calls cost at today's prices, in US dollars."
          note={
            !anyCost ? (
              "No model calls in this period."
            ) : total.usage.costMicros === null ? (
              <>
                No price set for the models used: <a href={MODEL_PRICES_HREF} className="text-accent underline-offset-4 hover:underline">set prices</a>.
              </>
            ) : null
          }
        >
          <BarChart data={rows} margin={{ top: 8, right: 8, bottom: 0, left: -8 }} accessibilityLayer={false}>
            <CartesianGrid strokeDasharray="3 3" stroke="var(--color-line)" vertical={false} />
            <XAxis dataKey="label" tick={AXIS} interval="preserveStartEnd" minTickGap={16} />
            <YAxis tick={AXIS} tickFormatter={(value: number) => `$${value}`} />
            <Tooltip cursor={{ fill: "var(--color-surface-sunken)" }} formatter={(_value, _name, item) => formatCost((item.payload as { costMicros: number | null }).costMicros ?? 0)} />
            <Bar dataKey="cost" name="Cost" fill={COLOURS.cost} isAnimationActive={false} />
          </BarChart>
        </ChartCard>
      </div>
      <ActivityTable activity={activity} shortDay={shortDay} />
    </div>
  );
}

/**
 * One chart with its heading; to a screen reader an image described in words (the table below has the figures, so
 * the charts' own keyboard layer is off: one stop per chart would only repeat them).
 */
function ChartCard({ title, description, note, children }: { title: string; description: string; note?: ReactNode; children: React.ReactElement }) {
  const id = title.toLowerCase().replace(/\W+/g, "-");
  return (
    <section aria-labelledby={`${id}-title`} className="rounded-xl border border-line bg-surface p-4 shadow-card">
      <h2 id={`${id}-title`} className="text-sm font-semibold">
        {title}
      </h2>
      <p id={`${id}-description`} className="mb-2 text-xs text-muted">
        {description}
      </p>
      <div role="img" aria-labelledby={`${id}-title`} aria-describedby={`${id}-description`} data-testid={`chart-${id}`}>
        {/* Drawn at its usual size at once, then fitted to the card: one pass less than waiting to be measured. */}
        <ResponsiveContainer width="100%" height={CHART_HEIGHT} initialDimension={{ width: 360, height: CHART_HEIGHT }}>
          {children}
        </ResponsiveContainer>
      </div>
      {note ? <p className="mt-2 text-xs text-muted">{note}</p> : null}
    </section>
  );
}
