"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { ScorerComparison } from "@/lib/evaluations/comparison";
import { percent } from "./verdict-badge";

/** Colours of the studio's theme (app/globals.css), so the chart follows light and dark. */
const COLOURS = { a: "var(--color-line-strong)", b: "var(--color-accent)" };
const AXIS = { fontSize: 11, fill: "var(--color-muted)" };
const HEIGHT = 220;

/**
 * Each scorer's average in the two evaluations, as bars side by side. To a screen reader an image described in
 * words; the table beside it has the figures.
 */
export function ComparisonChart({ scorers, labelA, labelB }: { scorers: ScorerComparison[]; labelA: string; labelB: string }) {
  const rows = scorers.map((scorer) => ({ name: scorer.name, a: scorer.averageA === null ? 0 : scorer.averageA * 100, b: scorer.averageB === null ? 0 : scorer.averageB * 100 }));
  const description = scorers.map((scorer) => `${scorer.name}: ${percent(scorer.averageA)} then ${percent(scorer.averageB)}`).join("; ");
  return (
    <section aria-labelledby="comparison-chart-title" className="rounded-xl border border-line bg-surface p-4 shadow-card">
      <h2 id="comparison-chart-title" className="text-sm font-semibold">
        Averages side by side
      </h2>
      <p id="comparison-chart-description" className="mb-2 text-xs text-muted">
        {description}.
      </p>
      <div role="img" aria-labelledby="comparison-chart-title" aria-describedby="comparison-chart-description" data-testid="comparison-chart">
        <ResponsiveContainer width="100%" height={HEIGHT} initialDimension={{ width: 480, height: HEIGHT }}>
          <BarChart data={rows} margin={{ top: 8, right: 8, bottom: 0, left: -16 }} accessibilityLayer={false}>
            <CartesianGrid strokeDasharray="3 3" stroke="var(--color-line)" vertical={false} />
            <XAxis dataKey="name" tick={AXIS} interval={0} />
            <YAxis domain={[0, 100]} tick={AXIS} tickFormatter={(value: number) => `${value}%`} />
            <Tooltip cursor={{ fill: "var(--color-surface-sunken)" }} formatter={(value) => (typeof value === "number" ? `${Math.round(value)}%` : String(value))} />
            <Legend wrapperStyle={{ fontSize: 11 }} formatter={(value: string) => <span className="text-foreground">{value}</span>} />
            <Bar dataKey="a" name={labelA} fill={COLOURS.a} isAnimationActive={false} />
            <Bar dataKey="b" name={labelB} fill={COLOURS.b} isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </div>
    </section>
  );
}
